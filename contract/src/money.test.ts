import { describe, expect, it } from 'vitest';
import { formatDollars } from './money.js';

const intlWhole = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const intlCents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** What the portal showed before it wrote dollars out itself. */
const intl = (dollars: number) =>
  (Number.isInteger(dollars) ? intlWhole : intlCents).format(dollars);

describe('formatDollars', () => {
  it.each([
    [120, '$120'],
    [89.5, '$89.50'],
    [0, '$0'],
    [0.05, '$0.05'],
    [1250, '$1,250'],
    [1234567.89, '$1,234,567.89'],
    [-40, '-$40'],
    [-12.3, '-$12.30'],
  ])('writes %s as %s', (dollars, text) => {
    expect(formatDollars(dollars)).toBe(text);
  });

  it("writes every amount in cents as Intl's en-US dollars do", () => {
    const amounts = [
      ...Array.from({ length: 2_000 }, (_, cents) => cents / 100),
      ...[999.99, 1_000, 1_000.01, 99_999.99, 100_000, 999_999.99, 1_000_000, 12_345_678.9],
    ];
    const refunds = amounts.filter((amount) => amount > 0).map((amount) => -amount);
    for (const dollars of [...amounts, ...refunds]) {
      expect(formatDollars(dollars), String(dollars)).toBe(intl(dollars));
    }
  });
});
