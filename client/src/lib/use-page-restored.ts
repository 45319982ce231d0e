import { useEffect } from 'react';

/**
 * Runs `reset` when the browser brings this page back from its back/forward cache. A page left
 * by a full-page navigation (the end of a sign-in) comes back exactly as it was left, its
 * buttons still busy; Back must find them usable. `reset` should be stable (a state setter's
 * call wrapped in useCallback).
 */
export function usePageRestored(reset: () => void) {
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [reset]);
}
