import type { IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { isoToLocalDate, localDateToIso } from './dates';

describe('calendar days and ISO dates', () => {
  it('turn into each other by calendar fields, whatever the browser’s time zone', () => {
    const day = isoToLocalDate('2028-02-29' as IsoDate);
    expect([day.getFullYear(), day.getMonth(), day.getDate(), day.getHours()]).toEqual([
      2028, 1, 29, 0,
    ]);
    expect(localDateToIso(day)).toBe('2028-02-29');
    expect(localDateToIso(new Date(2031, 11, 31, 23, 59))).toBe('2031-12-31');
  });
});
