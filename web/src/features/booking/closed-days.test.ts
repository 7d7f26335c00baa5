import type { ClosedDate, IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { closedDays, monthOf } from './closed-days';

describe('the closed days of the booking calendar', () => {
  it('names the first and last date of a month, leap years and December included', () => {
    expect(monthOf('2032-02-14' as IsoDate)).toEqual({ from: '2032-02-01', to: '2032-02-29' });
    expect(monthOf('2031-02-01' as IsoDate)).toEqual({ from: '2031-02-01', to: '2031-02-28' });
    expect(monthOf('2031-12-31' as IsoDate)).toEqual({ from: '2031-12-01', to: '2031-12-31' });
  });

  it('matches the closed dates by calendar date, with their labels', () => {
    const closed: ClosedDate[] = [
      { date: '2031-12-25', reason: 'closure', label: 'Christmas Day' },
      { date: '2031-12-28', reason: 'weekly', label: 'Closed on Sundays' },
    ];
    const { isClosed, labelOf } = closedDays(closed);
    expect(isClosed(new Date(2031, 11, 25))).toBe(true);
    expect(labelOf(new Date(2031, 11, 25))).toBe('Christmas Day');
    expect(labelOf(new Date(2031, 11, 28))).toBe('Closed on Sundays');
    expect(isClosed(new Date(2031, 11, 26))).toBe(false);
    expect(closedDays([]).isClosed(new Date(2031, 11, 25))).toBe(false);
  });
});
