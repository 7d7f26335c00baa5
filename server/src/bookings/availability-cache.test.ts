import type { IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { availabilityCache } from './availability-cache.js';
import { clinicMoment } from './clock.js';

const moment = (today: IsoDate, minutes: number) => ({ today, minutes });

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

describe('the clinic’s moment', () => {
  it('is the clinic’s calendar date and minute, also when asked twice in one second', () => {
    // 2031-01-03 04:30 UTC is 2031-01-02 23:30 in New York.
    const at = new Date('2031-01-03T04:30:10Z');
    expect(clinicMoment('America/New_York', at)).toEqual({ today: '2031-01-02', minutes: 1410 });
    expect(clinicMoment('America/New_York', new Date('2031-01-03T04:30:59Z'))).toEqual({
      today: '2031-01-02',
      minutes: 1410,
    });
    expect(clinicMoment('Asia/Tokyo', at)).toEqual({ today: '2031-01-03', minutes: 810 });
    expect(clinicMoment('America/New_York', new Date('2031-01-03T05:00:00Z'))).toEqual({
      today: '2031-01-03',
      minutes: 0,
    });
  });
});
