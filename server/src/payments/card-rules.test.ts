import { describe, expect, it } from 'vitest';
import { cardOutcome, type DemoCard, passesLuhn } from './demo-gateway.js';

/** Mid-June 2030: cards expiring in May 2030 are past, in June 2030 still good. */
const NOW = new Date('2030-06-15T12:00:00Z');
const card = (fields: Partial<DemoCard> = {}): DemoCard => ({
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: 2034,
  cvc: '123',
  postalCode: '10001',
  ...fields,
});

describe("the demo gateway's cards, as Stripe's test mode judges them", () => {
  it.each([
    ['4242 4242 4242 4242', 'Visa'],
    ['4000 0566 5566 5556', 'Visa debit'],
    ['5555 5555 5555 4444', 'Mastercard'],
    ['6011 1111 1111 1117', 'Discover'],
  ])('accepts the test card %s (%s)', (number) => {
    expect(cardOutcome(card({ number }), NOW)).toBeNull();
  });

  it('accepts an American Express test card with its four-digit security code', () => {
    expect(cardOutcome(card({ number: '3782 822463 10005', cvc: '1234' }), NOW)).toBeNull();
  });

  it.each([
    ['4000 0000 0000 0002', 'card_declined', 'generic_decline', 'Your card was declined.'],
    [
      '4000 0000 0000 9995',
      'card_declined',
      'insufficient_funds',
      'Your card has insufficient funds.',
    ],
    ['4000 0000 0000 9987', 'card_declined', 'lost_card', 'Your card was declined.'],
    ['4000 0000 0000 0069', 'expired_card', undefined, 'Your card has expired.'],
    ['4000 0000 0000 0127', 'incorrect_cvc', undefined, "Your card's security code is incorrect."],
  ])('declines the test card %s with %s (%s)', (number, code, declineCode, message) => {
    expect(cardOutcome(card({ number }), NOW)).toEqual({
      type: 'card_error',
      code,
      ...(declineCode ? { declineCode } : {}),
      message,
    });
  });

  it('declines a real card number, as test mode does', () => {
    // A well-formed Visa number that is not one of Stripe's test cards.
    expect(cardOutcome(card({ number: '4111 1111 1111 1111' }), NOW)).toMatchObject({
      code: 'card_declined',
      message: expect.stringContaining('Your request was in test mode, but used a non test card'),
    });
  });

  it.each([
    ['4242 4242 4242 4241', 'incorrect_number', 'Your card number is incorrect.'],
    ['4242 4242 4242', 'incomplete_number', 'Your card number is incomplete.'],
    ['', 'incomplete_number', 'Your card number is incomplete.'],
    ['4242 4242 4242 4242 4242', 'incorrect_number', 'Your card number is incorrect.'],
    ['4242-abcd-4242-4242', 'incorrect_number', 'Your card number is incorrect.'],
  ])('refuses the number %o: %s', (number, code, message) => {
    expect(cardOutcome(card({ number }), NOW)).toEqual({ type: 'card_error', code, message });
  });

  it.each([
    [
      { expMonth: 5, expYear: 2030 },
      'invalid_expiry_month_past',
      "Your card's expiration date is in the past.",
    ],
    [
      { expMonth: 12, expYear: 2029 },
      'invalid_expiry_year_past',
      "Your card's expiration year is in the past.",
    ],
    [
      { expMonth: 12, expYear: 29 },
      'invalid_expiry_year_past',
      "Your card's expiration year is in the past.",
    ],
    [
      { expMonth: 13, expYear: 2034 },
      'invalid_expiry_month',
      "Your card's expiration month is invalid.",
    ],
    [
      { expMonth: 1, expYear: 2099 },
      'invalid_expiry_year',
      "Your card's expiration year is invalid.",
    ],
  ])('refuses the expiry %o: %s', (expiry, code, message) => {
    expect(cardOutcome(card(expiry), NOW)).toEqual({ type: 'card_error', code, message });
  });

  it('takes a card to the end of its expiry month, and a two-digit year as 20xx', () => {
    expect(cardOutcome(card({ expMonth: 6, expYear: 2030 }), NOW)).toBeNull();
    expect(cardOutcome(card({ expMonth: 6, expYear: 30 }), NOW)).toBeNull();
  });

  it.each([
    [{ cvc: '12' }, 'incomplete_cvc', "Your card's security code is incomplete."],
    [{ cvc: '' }, 'incomplete_cvc', "Your card's security code is incomplete."],
    [
      { number: '3782 822463 10005', cvc: '123' },
      'incomplete_cvc',
      "Your card's security code is incomplete.",
    ],
    [{ cvc: '12a' }, 'invalid_cvc', "Your card's security code is invalid."],
    [{ postalCode: '  ' }, 'incomplete_zip', 'Your postal code is incomplete.'],
  ])('refuses %o: %s', (fields, code, message) => {
    expect(cardOutcome(card(fields), NOW)).toEqual({ type: 'card_error', code, message });
  });

  it('reports the first problem in the order of the card form: number, expiry, code, postcode', () => {
    const everythingWrong = card({
      number: '4242',
      expMonth: 1,
      expYear: 2020,
      cvc: '',
      postalCode: '',
    });
    expect(cardOutcome(everythingWrong, NOW)?.code).toBe('incomplete_number');
    expect(cardOutcome({ ...everythingWrong, number: '4242424242424242' }, NOW)?.code).toBe(
      'invalid_expiry_year_past',
    );
  });
});

describe('the Luhn check', () => {
  it('holds for card numbers and fails when a digit is off', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('')).toBe(false);
  });
});
