import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';
import {
  DOCTOR_EMAIL_PATTERN,
  EMAIL_PATTERN,
  emailField,
  nameField,
  passwordField,
} from './validation.js';

const firstMessage = (result: {
  success: boolean;
  error?: { issues: Array<{ message: string }> };
}) => result.error?.issues[0]?.message;

describe("the spec's validation rules", () => {
  it.each(['ana@mail.com', 'ana99@clinic.org', 'ana.lee@mail.co', 'x1@ab.de'])(
    'accepts the email %s',
    (email) => {
      expect(EMAIL_PATTERN.test(email)).toBe(true);
    },
  );

  it.each(['ana', 'ana@mail', 'ANA@MAIL.COM', 'ana@mail.c', '@mail.com'])(
    'refuses the email %s',
    (email) => {
      expect(EMAIL_PATTERN.test(email)).toBe(false);
    },
  );

  it('lets doctor emails use capitals', () => {
    expect(DOCTOR_EMAIL_PATTERN.test('Dr.Lee@Clinic.COM')).toBe(true);
  });

  it('words each failure as the spec does', () => {
    expect(firstMessage(emailField().safeParse(''))).toBe(messages.emailRequired);
    expect(firstMessage(emailField().safeParse(undefined))).toBe(messages.emailRequired);
    expect(firstMessage(emailField().safeParse('nope'))).toBe(messages.emailInvalid);
    expect(firstMessage(passwordField.safeParse(''))).toBe(messages.passwordRequired);
    expect(firstMessage(passwordField.safeParse('12345'))).toBe(messages.passwordTooShort);
    expect(passwordField.safeParse('123456').success).toBe(true);
    expect(firstMessage(nameField.safeParse('   '))).toBe(messages.nameRequired);
  });
});
