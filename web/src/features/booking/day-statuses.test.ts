import type { AvailableDay } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { dayStatuses } from './day-statuses';

const days: AvailableDay[] = [
  { date: '2031-12-24', status: 'past' },
  { date: '2031-12-25', status: 'closed', label: 'Christmas Day' },
  { date: '2031-12-26', status: 'full' },
  { date: '2031-12-27', status: 'open' },
  { date: '2031-12-28', status: 'closed', label: 'Closed on Sundays' },
  { date: '2031-12-29', status: 'beyond-horizon' },
];
const december = (day: number) => new Date(2031, 11, day);

describe('the day statuses of the booking calendar', () => {
  it('disables closed, past and too-far days, and keeps full and open ones selectable', () => {
    const { isUnbookable } = dayStatuses(days);
    expect([24, 25, 26, 27, 28, 29].map((day) => isUnbookable(december(day)))).toEqual([
      true,
      true,
      false,
      false,
      true,
      true,
    ]);
  });

  it('marks closed and full days by calendar date', () => {
    const { isClosed, isFull } = dayStatuses(days);
    expect([25, 26, 27, 28].map((day) => [isClosed(december(day)), isFull(december(day))])).toEqual(
      [
        [true, false],
        [false, true],
        [false, false],
        [true, false],
      ],
    );
  });

  it('adds why to a day button’s name: the closure’s label, fully booked, too late or too far', () => {
    const { noteOf } = dayStatuses(days);
    expect([24, 25, 26, 27, 28, 29].map((day) => noteOf(december(day)))).toEqual([
      ', too late to book',
      ', clinic closed: Christmas Day',
      ', fully booked',
      '',
      ', clinic closed: Closed on Sundays',
      ', not yet open for booking',
    ]);
  });

  it('leaves a day of a month not yet loaded alone', () => {
    const { isUnbookable, isFull, noteOf } = dayStatuses(days);
    expect([isUnbookable(december(31)), isFull(december(31)), noteOf(december(31))]).toEqual([
      false,
      false,
      '',
    ]);
    expect(dayStatuses([]).isUnbookable(december(25))).toBe(false);
  });
});
