import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearAccessToken } from '../lib/auth/access-token';

// findBy and waitFor wait up to 3 s, not 1 s: on a loaded 2-core machine a first render with its
// lazy chunks can take longer than a second. What never shows still fails.
configure({ asyncUtilTimeout: 3000 });

afterEach(() => {
  // Every test starts signed out, with the real fetch and clock. A test of what runs in Node
  // (`@vitest-environment node`: the server's prerender) has no page to clear.
  if (typeof document !== 'undefined') {
    cleanup();
    clearAccessToken();
    localStorage.clear();
  }
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
