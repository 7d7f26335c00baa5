import { describe, expect, it } from 'vitest';
import { slotStartMinutes, slotsBetween } from './slots.js';

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
});
