import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearAccessToken } from '../lib/auth/access-token';

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
