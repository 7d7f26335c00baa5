import { describe, expect, it } from 'vitest';
import {
  bookingFormSchema,
  bookingRequestSchema,
  isoDateField,
  mediumDateField,
} from './booking.js';
import type { IsoDate } from './dates.js';
import { messages } from './messages.js';

describe('a booking date on the wire and inside', () => {
  it('decodes the spec’s medium format to an ISO date and encodes it back', () => {
    expect(mediumDateField.decode('Jan 5, 2022')).toBe('2022-01-05');
    expect(mediumDateField.encode('2022-01-05' as IsoDate)).toBe('Jan 5, 2022');
  });

  it.each(['Feb 30, 2024', '2022-01-05', 'jan 5, 2022', ''])(
    'refuses %j with the reason',
    (text) => {
      const result = mediumDateField.safeDecode(text);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        "Provide a real date in the form 'Jan 5, 2022'",
      );
    },
  );

  it('hands a booking request’s date over as an ISO date', () => {
    const request = bookingRequestSchema.decode({
      treatmentId: 'teeth-cleaning',
      date: 'Mar 3, 2031',
      slot: '10:00 AM - 10:30 AM',
      phone: '+1 555 010 2030',
      age: 34,
    });
    expect(request.date).toBe('2031-03-03');
  });

  it('reads ISO dates of query strings, refusing impossible ones', () => {
    expect(isoDateField.parse('2028-02-29')).toBe('2028-02-29');
    expect(isoDateField.safeParse('2027-02-29').success).toBe(false);
  });
});

describe('the age of a booking', () => {
  const form = { slot: '10:00 AM - 10:30 AM', phone: '+1 555 010 2030' };
  const ageOf = (age: unknown) => bookingFormSchema.safeParse({ ...form, age });

  it.each([
    [34, 34],
    ['34', 34],
    [' 7 ', 7],
    [0, 0],
    ['0', 0],
  ])('reads %j as %j', (age, read) => {
    expect(ageOf(age).data?.age).toBe(read);
  });

  it.each([undefined, null, '', '   ', Number.NaN, [], ['34'], {}, true])(
    'takes %j for no age at all, never age 0',
    (age) => {
      expect(ageOf(age).error?.issues[0]?.message).toBe(messages.ageRequired);
    },
  );

  it.each(['abc', '0x1E', '30.5', '1e1', '-5', 30.5, -1, 121])(
    'refuses %j as no whole number from 0 to 120',
    (age) => {
      expect(ageOf(age).error?.issues[0]?.message).toBe(messages.ageInvalid);
    },
  );
});

describe("a field's message for what is wrong with it", () => {
  const dateIssue = (value: unknown) => mediumDateField.safeDecode(value as string).error?.issues;
  const request = {
    treatmentId: 'teeth-cleaning',
    date: 'Mar 3, 2031',
    slot: '10:00 AM - 10:30 AM',
    phone: '+1 555 010 2030',
    age: 34,
  };
  const messageOf = (change: object) =>
    bookingRequestSchema.safeDecode({ ...request, ...change } as never).error?.issues[0]?.message;

  it("says 'is Required' only when the field is missing", () => {
    expect(dateIssue(undefined)?.[0]?.message).toBe('Date is Required');
    expect(messageOf({ treatmentId: undefined })).toBe('Treatment is Required');
    expect(messageOf({ slot: null })).toBe(messages.slotRequired);
    expect(messageOf({ phone: undefined })).toBe(messages.phoneRequired);
  });

  it('says what is wrong with a value of the wrong kind or size', () => {
    expect(dateIssue(['Mar 3, 2031', 'Mar 4, 2031'])?.[0]?.message).toBe(
      "Provide a real date in the form 'Jan 5, 2022'",
    );
    expect(messageOf({ phone: 5550102030 })).toBe(messages.phoneInvalid);
    for (const change of [{ treatmentId: 'x'.repeat(101) }, { treatmentId: ['a'] }, { slot: 7 }]) {
      const message = messageOf(change);
      expect(message, JSON.stringify(change)).toBeDefined();
      expect(message).not.toMatch(/is Required$/);
    }
  });
});
