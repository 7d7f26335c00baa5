import type { IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { availabilityCache } from './availability-cache.js';
import type { ClinicMoment } from './clock.js';

const moment = (today: IsoDate, minutes: number): ClinicMoment => ({
  today,
  minutes,
  timeZone: 'America/New_York',
  at: 0,
});

describe('the availability answers an instance keeps (performance, docs/performance.md)', () => {
  it('answers a day’s JSON within the window and forgets it after', () => {
    const cache = availabilityCache(1_000);
    cache.set(clinicDay(9), moment(clinicDay(2), 600), '[1]', 5_000);
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 600), 5_999)).toBe('[1]');
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 600), 6_000)).toBeUndefined();
  });

  it('keeps today’s answer per minute (started slots leave it) and other days’ per day', () => {
    const cache = availabilityCache(1_000);
    cache.set(clinicDay(2), moment(clinicDay(2), 600), '[today]', 0);
    cache.set(clinicDay(9), moment(clinicDay(2), 600), '[later]', 0);
    expect(cache.get(clinicDay(2), moment(clinicDay(2), 601), 10)).toBeUndefined();
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 601), 10)).toBe('[later]');
    // A new clinic day: no answer of the day before is reused.
    expect(cache.get(clinicDay(9), moment(clinicDay(3), 0), 10)).toBeUndefined();
  });

  it('forgets everything when a booking or a cancellation goes through this instance', () => {
    const cache = availabilityCache(1_000);
    cache.set(clinicDay(9), moment(clinicDay(2), 600), '[1]', 0);
    cache.clear();
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 600), 1)).toBeUndefined();
  });
});
