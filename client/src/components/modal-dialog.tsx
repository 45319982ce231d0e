import { useEffect, useId, useRef, type ReactNode } from 'react';

type ModalDialogProps = {
  open: boolean;
  title: string;
  description: ReactNode;
  /** `alertdialog` asks before something that cannot be undone. */
  role?: 'dialog' | 'alertdialog';
  /** While a call is on its way Escape does nothing. */
  busy: boolean;
  onClose: () => void;
  children: ReactNode;
};

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog, titled and described. Focus moves in (to the element marked
 * `data-autofocus`, else the first control), Tab stays inside, Escape closes, and focus goes
 * back to where it was when the dialog closes.
 */
export function ModalDialog({ open, title, description, role = 'dialog', busy, onClose, children }: ModalDialogProps) {
  const titleId = useId();
  const textId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // The latest values, read by listeners set up once per opening (a parent that passes a new
  // function each render would otherwise move the focus back on every keystroke).
  const latest = useRef({ busy, onClose });
  latest.current = { busy, onClose };

  useEffect(() => {
    if (!open) return undefined;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = panel.current;
    const first = root?.querySelector<HTMLElement>('[data-autofocus]') ?? root?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !latest.current.busy) {
        event.preventDefault();
        latest.current.onClose();
        return;
      }
      if (event.key !== 'Tab' || !root) return;
      const controls = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)];
      const [head, tail] = [controls[0], controls[controls.length - 1]];
      if (!head || !tail) {
        // Every control waits for a call on its way: focus stays in the dialog, on the panel.
        event.preventDefault();
        if (!root.contains(document.activeElement)) root.focus();
        return;
      }
      if (event.shiftKey && (document.activeElement === head || !root.contains(document.activeElement))) {
        event.preventDefault();
        tail.focus();
      } else if (!event.shiftKey && (document.activeElement === tail || !root.contains(document.activeElement))) {
        event.preventDefault();
        head.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-slate-950/60 p-4">
      <div ref={panel} role={role} aria-modal="true" aria-labelledby={titleId} aria-describedby={textId} tabIndex={-1} className="my-auto w-full max-w-md rounded-2xl bg-paper p-6 shadow-xl focus:outline-none">
        <h2 id={titleId} className="break-words text-lg font-bold text-ink-900">
          {title}
        </h2>
        <div id={textId} className="mt-2 text-ink-700">
          {description}
        </div>
        {children}
      </div>
    </div>
  );
}
