import { afterEach, vi } from 'vitest';
import { clock } from '../src/bookings/clock.js';
import { TEST_NOW } from './dates.js';

/**
 * The clinic's clock in the server's tests stands still at noon on Jan 1, 2031 in the clinic's
 * time zone (America/New_York, `TEST_NOW` in dates.ts), so that the dates the tests book, named
 * relative to it (`clinicDay`, `mediumDay`), are ahead of it and within the booking horizon
 * whatever the date the tests run on. A test that needs another moment spies on `clock.now`.
 */
clock.now = () => new Date(TEST_NOW);

afterEach(() => {
  vi.restoreAllMocks();
});
