/**
 * Calls `callback` now, and again whenever the person may be back to a page whose data has
 * gone stale (SPEC.md section 9: "refetch on focus and on reconnect"): the window regains focus,
 * the browser is online again, or the tab becomes visible. Returns what stops it, so that an
 * effect can return it as its cleanup.
 */
export function onReturn(callback: () => void): () => void {
  const onVisibility = () => {
    if (document.visibilityState === 'visible') callback();
  };
  callback();
  window.addEventListener('focus', callback);
  window.addEventListener('online', callback);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('focus', callback);
    window.removeEventListener('online', callback);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
