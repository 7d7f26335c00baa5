import { afterEach, vi } from 'vitest';
import { clock } from '../src/bookings/clock.js';

/**
 * The clinic's clock in the server's tests stands still at noon on Jan 1, 2031 in the clinic's
 * time zone (America/New_York), so that the dates the tests book are always ahead of it and
 * within the booking horizon, whatever the date the tests run on. A test that needs another
 * moment spies on `clock.now`.
 */
export const TEST_NOW = new Date('2031-01-01T17:00:00Z');
clock.now = () => new Date(TEST_NOW);

afterEach(() => {
  vi.restoreAllMocks();
});
