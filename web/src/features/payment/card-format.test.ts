import { describe, expect, it } from 'vitest';
import {
  caretAfterDigits,
  digitsOf,
  formatCardNumber,
  formatExpiry,
  parseExpiry,
} from './card-format';

describe('the card number as typed', () => {
  it('is grouped in fours, whatever spacing was typed', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumber('')).toBe('');
  });

  it('keeps at most 19 digits', () => {
    expect(formatCardNumber('1234567890123456789012')).toBe('1234 5678 9012 3456 789');
  });

  it('groups an American Express number 4-6-5, and keeps 15 digits', () => {
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('34000000000000099')).toBe('3400 000000 00000');
    expect(formatCardNumber('37828')).toBe('3782 8');
  });

  it('counts only digits', () => {
    expect(digitsOf('4242 4242 abc')).toBe('42424242');
  });
});

describe('the expiry as typed', () => {
  it("reads as 'MM / YY'", () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('123')).toBe('12 / 3');
    expect(formatExpiry('1234')).toBe('12 / 34');
  });

  it('puts a 0 before a month that cannot have two digits', () => {
    expect(formatExpiry('4')).toBe('04');
    expect(formatExpiry('434')).toBe('04 / 34');
  });

  it('takes an autofilled month and four-digit year', () => {
    expect(formatExpiry('12/2034')).toBe('12 / 34');
    expect(formatExpiry('1/2034')).toBe('01 / 34');
  });

  it('is a month and a two-digit year only once complete', () => {
    expect(parseExpiry('12 / 34')).toEqual({ month: 12, year: 34 });
    expect(parseExpiry('12 / 3')).toBeNull();
  });
});

describe('the caret after reformatting', () => {
  it('stays after the same digit', () => {
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
    expect(caretAfterDigits('4242', 9)).toBe(4);
  });
});
