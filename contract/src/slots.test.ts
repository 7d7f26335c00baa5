import { describe, expect, it } from 'vitest';
import {
  generateSlots,
  slotErrors,
  slotListIssue,
  slotStartMinutes,
  slotsBetween,
  slotUnits,
  sortSlots,
} from './slots.js';

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

describe('slot lists of a treatment', () => {
  it('generates consecutive slots from a start, an end and a length', () => {
    expect(generateSlots('09:00', '10:40', 30)).toEqual({
      slots: ['9:00 AM - 9:30 AM', '9:30 AM - 10:00 AM', '10:00 AM - 10:30 AM'],
    });
    expect(generateSlots('11:30', '13:00', 45)).toEqual({
      slots: ['11:30 AM - 12:15 PM', '12:15 PM - 1:00 PM'],
    });
    expect(generateSlots('00:00', '00:20', 10)).toEqual({
      slots: ['12:00 AM - 12:10 AM', '12:10 AM - 12:20 AM'],
    });
  });

  it.each([
    ['', '10:00', 30, slotErrors.generatorTimes],
    ['9:00', '10:00', 30, slotErrors.generatorTimes],
    ['10:00', '10:00', 30, slotErrors.generatorEnd],
    ['10:00', '09:00', 30, slotErrors.generatorEnd],
    ['09:00', '10:00', 0, slotErrors.generatorLength],
    ['09:00', '10:00', 7.5, slotErrors.generatorLength],
    ['09:00', '09:20', 30, slotErrors.generatorFits],
    ['09:03', '10:00', 30, slotErrors.generatorMarks],
    ['09:00', '10:00', 7, slotErrors.generatorMarks],
  ])('explains why %j to %j by %j generates nothing', (start, end, length, error) => {
    expect(generateSlots(start, end, length)).toEqual({ error });
  });

  it('generates what the list check accepts', () => {
    const generated = generateSlots('07:05', '21:55', 25);
    expect('slots' in generated && slotListIssue(generated.slots)).toBeNull();
  });

  it('accepts slots from the earliest, none twice, none overlapping, touching allowed', () => {
    expect(slotListIssue(['9:00 AM - 9:30 AM', '9:30 AM - 10:00 AM', '1:00 PM - 2:00 PM'])).toBe(
      null,
    );
  });

  it.each([
    [[], slotErrors.none],
    [['9:00 - 9:30'], slotErrors.format('9:00 - 9:30')],
    [['9:30 AM - 9:00 AM'], slotErrors.endBeforeStart('9:30 AM - 9:00 AM')],
    [['9:00 AM - 9:02 AM'], slotErrors.length('9:00 AM - 9:02 AM')],
    [['9:00 AM - 6:00 PM'], slotErrors.length('9:00 AM - 6:00 PM')],
    [['9:00 AM - 9:07 AM'], slotErrors.marks('9:00 AM - 9:07 AM')],
    [['9:03 AM - 9:33 AM'], slotErrors.marks('9:03 AM - 9:33 AM')],
    [['9:00 AM - 9:30 AM', '9:00 AM - 9:30 AM'], slotErrors.duplicate('9:00 AM - 9:30 AM')],
    [['10:00 AM - 10:30 AM', '9:00 AM - 9:30 AM'], slotErrors.order('9:00 AM - 9:30 AM')],
    [
      ['9:00 AM - 10:00 AM', '9:30 AM - 10:30 AM'],
      slotErrors.overlap('9:00 AM - 10:00 AM', '9:30 AM - 10:30 AM'),
    ],
    [Array.from({ length: 97 }, () => '9:00 AM - 9:30 AM'), slotErrors.tooMany],
  ])('refuses %j', (slots, issue) => {
    expect(slotListIssue(slots)).toBe(issue);
  });

  it('sorts labels by their start in time, not as text', () => {
    expect(sortSlots(['1:00 PM - 2:00 PM', '10:00 AM - 11:00 AM', '9:00 AM - 9:30 AM'])).toEqual([
      '9:00 AM - 9:30 AM',
      '10:00 AM - 11:00 AM',
      '1:00 PM - 2:00 PM',
    ]);
  });
});
