/** SPEC.md section 9: a sign-in popup window is 500 by 600. */
export const POPUP_FEATURES = 'width=500,height=600';

/** What a sign-in popup reported: its value, or an error code. */
export type PopupOutcome<T> = { ok: true; value: T } | { ok: false; code: string };

export type WatchPopupOptions = { win?: Window; pollMs?: number };

/**
 * Opens `url` in a popup named `name` and resolves with the first message `read` accepts (it
 * returns null for any other), or with popup-blocked when no window opened, or with
 * popup-closed-by-user when the window closed without a message.
 */
export function watchPopup<T>(
  url: string,
  name: string,
  read: (event: MessageEvent) => PopupOutcome<T> | null,
  { win = window, pollMs = 500 }: WatchPopupOptions = {},
): Promise<PopupOutcome<T>> {
  const popup = win.open(url, name, POPUP_FEATURES);
  if (!popup) return Promise.resolve({ ok: false, code: 'popup-blocked' });

  return new Promise((resolve) => {
    let settled = false;
    let closedTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: PopupOutcome<T>) => {
      if (settled) return;
      settled = true;
      win.removeEventListener('message', onMessage);
      clearInterval(poll);
      clearTimeout(closedTimer);
      resolve(outcome);
    };
    const onMessage = (event: MessageEvent) => {
      const outcome = read(event);
      if (outcome) finish(outcome);
    };
    win.addEventListener('message', onMessage);
    const poll = setInterval(() => {
      // The callback page posts and then closes itself: give its message a moment to arrive.
      if (popup.closed && closedTimer === undefined) {
        closedTimer = setTimeout(() => finish({ ok: false, code: 'popup-closed-by-user' }), pollMs);
      }
    }, pollMs);
  });
}
