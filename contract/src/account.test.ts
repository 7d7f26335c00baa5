import { describe, expect, it } from 'vitest';
import { accountAgeField } from './account.js';
import { bookingFormSchema } from './booking.js';
import { messages } from './messages.js';

describe("the account's age", () => {
  it.each([
    [34, 34],
    [0, 0],
    [120, 120],
    [' 41 ', 41],
    ['', null],
    ['  ', null],
    [null, null],
  ])('takes %j as %j', (given, stored) => {
    expect(accountAgeField.parse(given)).toBe(stored);
  });

  it.each([-1, 121, 34.5, '34.5', '0x1E', '1e1', 'forty', true, {}, Number.NaN])(
    "refuses %j with the booking form's message",
    (given) => {
      const result = accountAgeField.safeParse(given);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(messages.ageInvalid);
    },
  );

  it('accepts exactly the ages the booking form accepts', () => {
    for (const age of [-1, 0, 1, 60.5, 119, 120, 121]) {
      const booking = bookingFormSchema.shape.age.safeParse(age).success;
      expect(accountAgeField.safeParse(age).success, String(age)).toBe(booking);
    }
  });
});
