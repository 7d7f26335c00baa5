import { describe, expect, it } from 'vitest';
import { availableMonthErrors, availableMonthQuerySchema } from './available-month.js';

const parse = (month: unknown) => availableMonthQuerySchema.safeParse({ month });

describe('the month of GET /api/available/month', () => {
  it('decodes a month to its first and last dates, leap years and December included', () => {
    expect(parse('2032-02').data?.month).toEqual({
      month: '2032-02',
      from: '2032-02-01',
      to: '2032-02-29',
    });
    expect(parse('2031-02').data?.month.to).toBe('2031-02-28');
    expect(parse('2031-04').data?.month.to).toBe('2031-04-30');
    expect(parse('9999-12').data?.month.to).toBe('9999-12-31');
    expect(parse('1970-01').data?.month.from).toBe('1970-01-01');
  });

  it.each(['', '2031-13', '2031-00', '2031-1', '1969-12', '2031-02-01', ' 2031-02', 42, null])(
    'refuses %j, saying how to write a month',
    (month) => {
      const result = parse(month);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(availableMonthErrors.month);
    },
  );
});
