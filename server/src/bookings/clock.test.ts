import { type IsoDate, LAST_DATE } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { startOfClinicDay } from '../audit/repository.js';
import {
  clinicInstant,
  clinicMoment,
  clockSkipsOn,
  skippedOnClock,
  startsWithin,
} from './clock.js';

const NEW_YORK = 'America/New_York';
const d = (date: string) => date as IsoDate;

describe('the clinic’s moment', () => {
  it('is the clinic’s calendar date and minute, also when asked twice in one second', () => {
    // 2031-01-03 04:30 UTC is 2031-01-02 23:30 in New York.
    const at = new Date('2031-01-03T04:30:10Z');
    expect(clinicMoment(NEW_YORK, at)).toEqual({
      today: '2031-01-02',
      minutes: 1410,
      timeZone: NEW_YORK,
      at: at.getTime(),
    });
    expect(clinicMoment(NEW_YORK, new Date('2031-01-03T04:30:59Z'))).toMatchObject({
      today: '2031-01-02',
      minutes: 1410,
    });
    expect(clinicMoment('Asia/Tokyo', at)).toMatchObject({ today: '2031-01-03', minutes: 810 });
    expect(clinicMoment(NEW_YORK, new Date('2031-01-03T05:00:00Z'))).toMatchObject({
      today: '2031-01-03',
      minutes: 0,
    });
  });

  it('finds the instant the clinic’s clock shows a time, on both sides of a daylight-saving change', () => {
    // New York moves its clocks from 2:00 to 3:00 AM on Mar 9, 2031 (EST, UTC-5 → EDT, UTC-4).
    expect(clinicInstant(NEW_YORK, '2031-03-08' as never, 600).toISOString()).toBe(
      '2031-03-08T15:00:00.000Z',
    );
    expect(clinicInstant(NEW_YORK, '2031-03-09' as never, 600).toISOString()).toBe(
      '2031-03-09T14:00:00.000Z',
    );
  });

  it('reads the last ISO date too, whose next midnight is in the year 10000 (its length is read)', () => {
    expect(clinicInstant('America/New_York', LAST_DATE).toISOString()).toBe(
      '9999-12-31T05:00:00.000Z',
    );
    expect(clinicInstant('Asia/Tokyo', LAST_DATE, 600).toISOString()).toBe(
      '9999-12-31T01:00:00.000Z',
    );
  });

  it('is the instant the clinic’s clock shows, for every time of two years in zones near and far', () => {
    const shownIn = (timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    const minutesAsked = [-840, -1, 0, 90, 150, 630, 1439, 1440, 1500];
    // Half-hour changes (Lord Howe), a zone without any (Kolkata), the southern summer (Santiago).
    for (const timeZone of [
      NEW_YORK,
      'Europe/London',
      'Australia/Lord_Howe',
      'Asia/Kolkata',
      'America/Santiago',
    ]) {
      const format = shownIn(timeZone);
      const asked = new Date('2031-01-01T12:00:00Z');
      for (let day = 0; day < 730; day += 1) {
        const date = asked.toISOString().slice(0, 10) as never;
        for (const minutes of minutesAsked) {
          const instant = clinicInstant(timeZone, date, minutes);
          // The wall clock the minutes name, counted from the date's midnight.
          const wall = new Date(Date.parse(`${date}T00:00:00Z`) + minutes * 60_000);
          const expected = wall.toISOString().slice(0, 16).replace('T', ', ');
          const shown = format.format(instant);
          // A time the clock skips (the hour it goes forward) is shown at no instant at all.
          const skipped =
            shown !== expected &&
            Array.from(
              { length: 113 },
              (_, step) => wall.getTime() + (step - 56) * 15 * 60_000,
            ).every((at) => format.format(at) !== expected);
          if (!skipped) expect(`${timeZone} ${shown}`).toBe(`${timeZone} ${expected}`);
        }
        asked.setUTCDate(asked.getUTCDate() + 1);
      }
    }
  });
});

describe('a notice before a slot starts (minimum notice, cancellation notice)', () => {
  const at = (iso: string) => clinicMoment(NEW_YORK, new Date(iso));

  it('counts real hours, so that 24 hours’ notice is 24 hours across a daylight-saving change', () => {
    // 10:00 AM on Mar 8 (EST) to 10:00 AM on Mar 9 (EDT): the clocks say 24 hours, 23 pass.
    const saturdayTen = at('2031-03-08T15:00:00Z');
    expect(startsWithin('2031-03-09' as never, '10:00 AM - 10:30 AM', saturdayTen, 24 * 60)).toBe(
      true,
    );
    expect(startsWithin('2031-03-09' as never, '11:00 AM - 11:30 AM', saturdayTen, 24 * 60)).toBe(
      false,
    );
    // In the autumn the clocks repeat an hour (Nov 2, 2031): 23 hours by the clock are 24 real.
    const autumnNine = at('2031-11-01T13:00:00Z'); // 9:00 AM EDT
    expect(startsWithin('2031-11-02' as never, '8:30 AM - 9:00 AM', autumnNine, 24 * 60)).toBe(
      false,
    );
    expect(startsWithin('2031-11-02' as never, '8:00 AM - 8:30 AM', autumnNine, 24 * 60)).toBe(
      false,
    );
    expect(startsWithin('2031-11-02' as never, '7:30 AM - 8:00 AM', autumnNine, 24 * 60)).toBe(
      true,
    );
  });

  it('is the same as having started when the notice is none', () => {
    const noon = at('2031-01-02T17:00:00Z');
    expect(startsWithin('2031-01-02' as never, '11:00 AM - 11:30 AM', noon, 0)).toBe(true);
    expect(startsWithin('2031-01-02' as never, '12:30 PM - 1:00 PM', noon, 0)).toBe(false);
    expect(startsWithin('2031-01-02' as never, '12:30 PM - 1:00 PM', noon, 60)).toBe(true);
    expect(startsWithin('2031-01-02' as never, '1:30 PM - 2:00 PM', noon, 60)).toBe(false);
  });
});

describe('the hour the clocks skip', () => {
  // New York's clocks go from 2:00 to 3:00 AM on Mar 9, 2031, and back an hour on Nov 2.
  it('is only on the night the clocks go forward', () => {
    expect(clockSkipsOn(NEW_YORK, '2031-03-09' as never)).toBe(true);
    expect(clockSkipsOn(NEW_YORK, '2031-03-08' as never)).toBe(false);
    expect(clockSkipsOn(NEW_YORK, '2031-11-02' as never)).toBe(false);
    expect(clockSkipsOn('Asia/Tokyo', '2031-03-09' as never)).toBe(false);
  });

  it('holds the slots that start in it, and no other', () => {
    const skipped = (slot: string, date = '2031-03-09') =>
      skippedOnClock(NEW_YORK, date as never, slot);
    expect(skipped('2:00 AM - 2:30 AM')).toBe(true);
    expect(skipped('2:30 AM - 3:00 AM')).toBe(true);
    expect(skipped('1:30 AM - 2:00 AM')).toBe(false);
    expect(skipped('3:00 AM - 3:30 AM')).toBe(false);
    expect(skipped('10:00 AM - 10:30 AM')).toBe(false);
    // The day before, and the repeated hour of the autumn, exist.
    expect(skipped('2:30 AM - 3:00 AM', '2031-03-08')).toBe(false);
    expect(skipped('1:30 AM - 2:00 AM', '2031-11-02')).toBe(false);
    expect(skipped('Any time')).toBe(false);
  });
});

describe('a day whose clock jumps at midnight (Santiago, Havana)', () => {
  // Santiago: Sep 7, 2031 00:00 -04 → 01:00 -03 (00:00–00:59 never shown; the day is 23 h long).
  // Havana:   Mar 9, 2031 00:00 -05 → 01:00 -04.
  const cases = [
    {
      zone: 'America/Santiago',
      date: '2031-09-07',
      before: '2031-09-06',
      start: '2031-09-07T04:00:00.000Z',
    },
    {
      zone: 'America/Havana',
      date: '2031-03-09',
      before: '2031-03-08',
      start: '2031-03-09T05:00:00.000Z',
    },
  ];
  for (const { zone, date, before, start } of cases) {
    it(`${zone}: the day ${date} begins at its first instant, not at 23:00 the evening before`, () => {
      expect(clinicInstant(zone, d(date)).toISOString()).toBe(start);
      // GET /api/audit?from=… counts from there.
      expect(startOfClinicDay(d(date), zone)).toBe(start);
    });
    it(`${zone}: the short day is ${date} (not ${before}), and its 12:00 AM slot does not exist`, () => {
      expect(clockSkipsOn(zone, d(date))).toBe(true);
      expect(clockSkipsOn(zone, d(before))).toBe(false);
      expect(skippedOnClock(zone, d(date), '12:00 AM - 12:30 AM')).toBe(true);
    });
  }
});

describe('a calendar day a zone skipped (Pacific/Apia, 2011-12-30)', () => {
  it('has no slot at all, and the day before is a normal one', () => {
    expect(clockSkipsOn('Pacific/Apia', d('2011-12-30'))).toBe(true);
    expect(skippedOnClock('Pacific/Apia', d('2011-12-30'), '9:00 AM - 9:30 AM')).toBe(true);
    expect(clockSkipsOn('Pacific/Apia', d('2011-12-29'))).toBe(false);
  });
});

describe('the hour the clock repeats in the autumn', () => {
  it('takes the first 1:30 AM in New York and in London alike', () => {
    // New York, Nov 2, 2031: 1:30 EDT (05:30Z) comes first, 1:30 EST (06:30Z) an hour later.
    expect(clinicInstant('America/New_York', d('2031-11-02'), 90).toISOString()).toBe(
      '2031-11-02T05:30:00.000Z',
    );
    // London, Oct 26, 2031: 1:30 BST (00:30Z) comes first, 1:30 GMT (01:30Z) an hour later.
    expect(clinicInstant('Europe/London', d('2031-10-26'), 90).toISOString()).toBe(
      '2031-10-26T00:30:00.000Z',
    );
    // Auckland, Apr 6, 2031: 2:30 NZDT (13:30Z Apr 5) first, 2:30 NZST (14:30Z) later.
    expect(clinicInstant('Pacific/Auckland', d('2031-04-06'), 150).toISOString()).toBe(
      '2031-04-05T13:30:00.000Z',
    );
  });
});
