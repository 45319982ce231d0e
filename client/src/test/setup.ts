import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { resetSessionStore } from '@/lib/session-store';

// findBy and waitFor give up after 5 s rather than 1 s: on a loaded 2-core machine a render can
// take more than a second, and a test fails on what never appears, not on what is slow.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  resetSessionStore();
  window.localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
