import type { IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { availabilityCache, forgetAvailabilityAnswers } from './availability-cache.js';
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
    cache.set(clinicDay(9), moment(clinicDay(2), 600), '[1]', cache.version(), 5_000);
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 600), 5_999)).toBe('[1]');
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 600), 6_000)).toBeUndefined();
  });

  it('keeps today’s answer per minute (started slots leave it) and other days’ per day', () => {
    const cache = availabilityCache(1_000);
    const version = cache.version();
    cache.set(clinicDay(2), moment(clinicDay(2), 600), '[today]', version, 0);
    cache.set(clinicDay(9), moment(clinicDay(2), 600), '[later]', version, 0);
    expect(cache.get(clinicDay(2), moment(clinicDay(2), 601), 10)).toBeUndefined();
    expect(cache.get(clinicDay(9), moment(clinicDay(2), 601), 10)).toBe('[later]');
    // A new clinic day: no answer of the day before is reused.
    expect(cache.get(clinicDay(9), moment(clinicDay(3), 0), 10)).toBeUndefined();
  });

  it('forgets the days whose bookings changed through this instance, and only those', () => {
    const cache = availabilityCache(1_000);
    const at = moment(clinicDay(2), 600);
    const version = cache.version();
    cache.set(clinicDay(9), at, '[9]', version, 0);
    cache.set(clinicDay(10), at, '[10]', version, 0);
    cache.set(clinicDay(11), at, '[11]', version, 0);
    forgetAvailabilityAnswers(clinicDay(9), clinicDay(11));
    expect(cache.get(clinicDay(9), at, 1)).toBeUndefined();
    expect(cache.get(clinicDay(10), at, 1)).toBe('[10]');
    expect(cache.get(clinicDay(11), at, 1)).toBeUndefined();
  });

  it('forgets every day when the clinic changes what it offers', () => {
    const cache = availabilityCache(1_000);
    const at = moment(clinicDay(2), 600);
    cache.set(clinicDay(10), at, '[10]', cache.version(), 0);
    forgetAvailabilityAnswers();
    expect(cache.get(clinicDay(10), at, 1)).toBeUndefined();
  });

  it('does not keep an answer worked out while its day changed', () => {
    const cache = availabilityCache(1_000);
    const at = moment(clinicDay(2), 600);
    // Read before the answer's reads begin; a booking of the day goes through meanwhile.
    const before = cache.version();
    forgetAvailabilityAnswers(clinicDay(12));
    cache.set(clinicDay(12), at, '[stale]', before, 0);
    expect(cache.get(clinicDay(12), at, 1)).toBeUndefined();
    // A change of another day leaves an answer worked out meanwhile good.
    const during = cache.version();
    forgetAvailabilityAnswers(clinicDay(13));
    cache.set(clinicDay(12), at, '[fresh]', during, 0);
    expect(cache.get(clinicDay(12), at, 1)).toBe('[fresh]');
  });

  it('is shared by every cache of the process: a change through one route forgets for all', () => {
    const first = availabilityCache(1_000);
    const second = availabilityCache(1_000);
    const at = moment(clinicDay(2), 600);
    first.set(clinicDay(14), at, '[first]', first.version(), 0);
    second.set(clinicDay(14), at, '[second]', second.version(), 0);
    forgetAvailabilityAnswers(clinicDay(14));
    expect(first.get(clinicDay(14), at, 1)).toBeUndefined();
    expect(second.get(clinicDay(14), at, 1)).toBeUndefined();
  });
});
