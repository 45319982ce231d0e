/** What public/theme-init.js sets up before the app loads (see the comment there). */
type HeldSubmission = { form: HTMLFormElement; submitter: HTMLElement | null };

declare global {
  interface Window {
    tsAppReady?: boolean;
    tsTakeHeldSubmit?: () => HeldSubmission | null;
  }
}

/**
 * Fields filled in on the prerendered page before the app took it over hold their text in
 * the page but not in the app's state. React notices a change by comparing a field with the
 * last value it knows, which it took from the page, typed text included; so the field is set
 * back to what was rendered (through the element, which React sees), then to what was typed
 * (through the prototype's setter, which it does not), and the event React listens for makes
 * it catch up, as if the person had typed it now.
 */
function catchUp(field: HTMLInputElement | HTMLTextAreaElement, property: 'value' | 'checked', rendered: string | boolean, event: string): void {
  const typed = field[property as 'value'] as string | boolean;
  if (typed === rendered) return;
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, property)?.set;
  if (!setter) return;
  (field as unknown as Record<string, unknown>)[property] = rendered;
  setter.call(field, typed);
  field.dispatchEvent(new Event(event, { bubbles: true }));
}

function catchUpEarlyInput(): void {
  for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (field instanceof HTMLInputElement && field.type === 'radio') {
      // Only the one now chosen: its group's others follow from it.
      if (field.checked && !field.defaultChecked) catchUp(field, 'checked', false, 'click');
    } else if (field instanceof HTMLInputElement && field.type === 'checkbox') {
      catchUp(field, 'checked', field.defaultChecked, 'click');
    } else {
      catchUp(field, 'value', field.defaultValue, 'input');
    }
  }
}

/**
 * The page is the app's now: what was typed before reaches its state, and a form sent
 * before this moment (held by theme-init.js) is sent again, to the app's handler this time.
 */
export function markAppReady(): void {
  if (window.tsAppReady) return;
  window.tsAppReady = true;
  catchUpEarlyInput();
  const held = window.tsTakeHeldSubmit?.();
  if (!held?.form.isConnected) return;
  const { form, submitter } = held;
  const ownButton = submitter instanceof HTMLButtonElement && submitter.form === form && submitter.type === 'submit';
  // After the state updates above have rendered, so the handler sees the typed values.
  setTimeout(() => {
    if (form.isConnected) form.requestSubmit(ownButton ? submitter : undefined);
  }, 0);
}
