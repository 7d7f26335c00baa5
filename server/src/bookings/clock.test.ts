import { describe, expect, it } from 'vitest';
import {
  clinicInstant,
  clinicMoment,
  clockSkipsOn,
  skippedOnClock,
  startsWithin,
} from './clock.js';

const NEW_YORK = 'America/New_York';

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
