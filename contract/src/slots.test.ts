import { describe, expect, it } from 'vitest';
import { slotStartMinutes, slotsBetween, slotUnits } from './slots.js';

describe('slots', () => {
  it('reads the start of a slot in minutes after midnight', () => {
    expect(slotStartMinutes('10:00 AM - 10:30 AM')).toBe(600);
    expect(slotStartMinutes('12:30 PM - 1:00 PM')).toBe(750);
    expect(slotStartMinutes('12:00 AM - 12:30 AM')).toBe(0);
    expect(slotStartMinutes('9:45 PM - 10:00 PM')).toBe(21 * 60 + 45);
  });

  it.each(['10:00 - 10:30', '13:00 PM - 1:30 PM', '10:00 AM', '10:00 AM -10:30 AM'])(
    'refuses %j',
    (label) => {
      expect(slotStartMinutes(label)).toBeNull();
    },
  );

  it('lays out consecutive slots that fit before the end', () => {
    expect(slotsBetween('11:00 AM', '1:00 PM', 45)).toEqual([
      '11:00 AM - 11:45 AM',
      '11:45 AM - 12:30 PM',
    ]);
  });

  it('holds a slot in the 5-minute units it covers, so overlapping slots share a unit', () => {
    expect(slotUnits('10:00 AM - 10:30 AM')).toEqual([120, 121, 122, 123, 124, 125]);
    const hour = slotUnits('11:00 AM - 12:00 PM');
    expect(hour).toHaveLength(12);
    expect(hour.filter((unit) => slotUnits('11:30 AM - 12:00 PM').includes(unit))).toHaveLength(6);
    // Back to back: no unit in common.
    expect(
      slotUnits('10:30 AM - 11:00 AM').some((unit) =>
        slotUnits('10:00 AM - 10:30 AM').includes(unit),
      ),
    ).toBe(false);
    // Off the 5-minute grid: the partial units at either end are held too.
    expect(slotUnits('10:02 AM - 10:07 AM')).toEqual([120, 121]);
    expect(slotUnits('not a slot')).toEqual([]);
  });
});
