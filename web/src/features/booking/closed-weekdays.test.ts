import { describe, expect, it } from 'vitest';
import { closedWeekdays } from './closed-weekdays';

describe('closedWeekdays', () => {
  it('says nothing of a clinic open every day', () => {
    expect(closedWeekdays([0, 1, 2, 3, 4, 5, 6])).toBeNull();
  });

  it('names one, two or more closed days in weekday order', () => {
    expect(closedWeekdays([1, 2, 3, 4, 5, 6])).toBe('Closed on Sundays');
    expect(closedWeekdays([6, 5, 4, 3, 2])).toBe('Closed on Sundays and Mondays');
    expect(closedWeekdays([1, 3, 5])).toBe('Closed on Sundays, Tuesdays, Thursdays and Saturdays');
  });
});
