import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearAccessToken } from '../lib/auth/access-token';

afterEach(() => {
  cleanup();
  // Every test starts signed out, with the real fetch and clock.
  clearAccessToken();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
