import { afterEach, vi } from 'vitest';

// A test that makes the server log an error or warning has found a problem: fail it.
afterEach(() => {
  vi.restoreAllMocks();
});
