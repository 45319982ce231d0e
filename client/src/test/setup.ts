import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterEach, vi } from 'vitest';
import { resetSessionStore } from '@/lib/session-store';

// findBy and waitFor give up after 5 s rather than 1 s: on a loaded 2-core machine a render can
// take more than a second, and a test fails on what never appears, not on what is slow.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  // Files share a jsdom (vitest.config.ts): a toast raised as a test ended would wait in
  // react-toastify's queue and show in the next file's first container. With the container
  // unmounted, dismissing empties that queue.
  toast.dismiss();
  resetSessionStore();
  // The prerender's test runs in Node, as the build's prerender does: it has no window.
  if (typeof window !== 'undefined') {
    window.localStorage.clear();
    window.sessionStorage.clear();
  }
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
