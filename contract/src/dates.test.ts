import { describe, expect, it } from 'vitest';
import { datesBetween } from './clinic-calendar.js';
import {
  addDays,
  formatMediumDate,
  type IsoDate,
  LAST_DATE,
  parseIsoDate,
  parseMediumDate,
  todayIn,
} from './dates.js';

describe('medium dates', () => {
  it.each([
    ['Jan 5, 2022', '2022-01-05'],
    ['Dec 31, 2030', '2030-12-31'],
    ['Feb 29, 2028', '2028-02-29'],
  ])('parses %s as %s and formats it back', (medium, iso) => {
    expect(parseMediumDate(medium)).toBe(iso);
    expect(formatMediumDate(iso as IsoDate)).toBe(medium);
  });

  it.each([
    'Feb 29, 2027',
    'Feb 30, 2028',
    'Jan 0, 2022',
    'Jan 32, 2022',
    'January 5, 2022',
    'jan 5, 2022',
    '2022-01-05',
    'Jan 5 2022',
    '',
    'Jan 05, 20222',
  ])('refuses %j', (text) => {
    expect(parseMediumDate(text)).toBeNull();
  });

  it('validates ISO dates', () => {
    expect(parseIsoDate('2024-02-29')).toBe('2024-02-29');
    expect(parseIsoDate('2023-02-29')).toBeNull();
    expect(parseIsoDate('2023-13-01')).toBeNull();
  });
});

describe("the clinic's today", () => {
  const instant = new Date('2026-03-01T03:30:00Z');

  it('depends on the time zone, not the machine', () => {
    expect(todayIn('UTC', instant)).toBe('2026-03-01');
    expect(todayIn('America/New_York', instant)).toBe('2026-02-28');
    expect(todayIn('Asia/Dhaka', instant)).toBe('2026-03-01');
  });
});

describe('adding days', () => {
  it('crosses months, leap days and years', () => {
    expect(addDays('2028-02-28' as IsoDate, 1)).toBe('2028-02-29');
    expect(addDays('2027-12-31' as IsoDate, 1)).toBe('2028-01-01');
    expect(addDays('2027-03-01' as IsoDate, -1)).toBe('2027-02-28');
    expect(addDays('2027-01-01' as IsoDate, 180)).toBe('2027-06-30');
  });
});

describe('datesBetween', () => {
  it('lists every date of a range, both ends included, and none for a backward one', () => {
    expect(datesBetween('2028-02-28' as IsoDate, '2028-03-01' as IsoDate)).toEqual([
      '2028-02-28',
      '2028-02-29',
      '2028-03-01',
    ]);
    expect(datesBetween('2028-03-01' as IsoDate, '2028-02-28' as IsoDate)).toEqual([]);
  });

  it('ends at the last date an ISO date can name', () => {
    expect(datesBetween('9999-12-30' as IsoDate, LAST_DATE)).toEqual(['9999-12-30', '9999-12-31']);
    expect(parseIsoDate(LAST_DATE)).toBe(LAST_DATE);
  });
});
