import { type BookingStatus, cancellationPolicy, type IsoDate } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.js';
import {
  type BookingSummary,
  bookingConfirmationEmail,
  bookingReminderEmail,
  escapeHtml,
  passwordResetEmail,
  paymentReceiptEmail,
  refundFailedEmail,
  signUpAttemptEmail,
  verificationEmail,
} from './templates.js';

const clinic = loadConfig({}).clinic;
const booking: BookingSummary = {
  id: 'b-1',
  patientName: 'Jane Doe',
  treatment: 'Teeth Cleaning',
  isoDate: '2026-01-05' as IsoDate,
  slot: '10:00 AM - 10:30 AM',
  priceDollars: 80,
};
const hostile = `<script>alert("x")</script> & 'Co' <img src=x onerror=alert(1)>`;
const url = 'http://localhost:3000/api/auth/verify-email?token=abc.def&callbackURL=%2Fdashboard';

/** The ics text of a message, with folded lines joined again. */
function icsOf(content: ReturnType<typeof bookingConfirmationEmail>): string[] {
  const ics = content.icalEvent?.content ?? '';
  return ics.replace(/\r\n /g, '').split('\r\n');
}

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});

describe('link emails', () => {
  it.each([
    ['verification', verificationEmail, 'Verify your email for Doctors Portal'],
    ['password reset', passwordResetEmail, 'Reset your Doctors Portal password'],
  ])('%s: text and HTML parts with the link and the clinic', (_kind, template, subject) => {
    const mail = template({ clinic, name: 'Jane Doe', url, expiresInMinutes: 60 });
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain('Hello Jane Doe,');
    expect(mail.text).toContain(url);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.text).toContain(clinic.name);
    expect(mail.text).toContain(clinic.address);
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(mail.html).toContain(`href="${url.replace(/&/g, '&amp;')}"`);
    expect(mail.html).toContain(clinic.name);
    expect(mail.html).toContain('<h1');
  });

  it.each([
    ['verification', verificationEmail],
    ['password reset', passwordResetEmail],
  ])('%s: escapes names in HTML and keeps them readable in text', (_kind, template) => {
    const mail = template({
      clinic: { ...clinic, name: 'Smile <b>Dental</b>' },
      name: hostile,
      url,
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>Dental');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;',
    );
    expect(mail.html).toContain('Smile &lt;b&gt;Dental&lt;/b&gt;');
    expect(mail.text).toContain(`Hello ${hostile},`);
  });

  it('greets without a name when the account has none', () => {
    expect(verificationEmail({ clinic, name: '  ', url }).text.startsWith('Hello,\n')).toBe(true);
  });

  it('greets without a name that reads as a link, which mail clients would make clickable', () => {
    for (const name of [
      'Your account is locked. Re-verify at https://evil.example/verify now',
      '=HYPERLINK("http://evil.example","x")',
      'Visit www.evil.test',
      'evil.example',
    ]) {
      const mail = verificationEmail({ clinic, name, url });
      expect(mail.text.startsWith('Hello,\n'), name).toBe(true);
      expect(mail.text, name).not.toContain('evil');
      expect(mail.html, name).not.toContain('evil');
    }
    for (const name of ['Dr. Ana María Núñez-O’Brien', 'J. R. Smith']) {
      expect(verificationEmail({ clinic, name, url }).text).toContain(`Hello ${name},`);
    }
  });

  it('refuses a link that is not http(s)', () => {
    expect(() => verificationEmail({ clinic, name: 'x', url: 'javascript:alert(1)' })).toThrow(
      /http\(s\) URL/,
    );
    expect(() => passwordResetEmail({ clinic, name: 'x', url: 'data:text/html,hi' })).toThrow();
  });
});

describe('bookingConfirmationEmail', () => {
  it('states date, slot, treatment and price in both parts', () => {
    const mail = bookingConfirmationEmail({
      clinic,
      booking,
      url: 'http://localhost:3000/dashboard',
    });
    expect(mail.subject).toBe(
      'Appointment confirmed: Teeth Cleaning on Jan 5, 2026 at 10:00 AM - 10:30 AM',
    );
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Jan 5, 2026');
      expect(part).toContain('10:00 AM - 10:30 AM (Eastern Time)');
      expect(part).toContain('Teeth Cleaning');
      expect(part).toContain('$80');
      expect(part).toContain(clinic.name);
      expect(part).toContain('http://localhost:3000/dashboard');
    }
    expect(mail.html).toContain('<th scope="row"');
  });

  it('carries an .ics event in the clinic time zone', () => {
    const now = new Date(Date.UTC(2025, 11, 20, 12, 0, 0));
    const mail = bookingConfirmationEmail({ clinic, booking, timeZone: 'America/New_York', now });
    expect(mail.icalEvent).toMatchObject({ filename: 'appointment.ics', method: 'PUBLISH' });
    const ics = mail.icalEvent?.content ?? '';
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const lines = icsOf(mail);
    expect(lines).toContain('METHOD:PUBLISH');
    expect(lines).toContain('DTSTART;TZID=America/New_York:20260105T100000');
    expect(lines).toContain('DTEND;TZID=America/New_York:20260105T103000');
    expect(lines).toContain('DTSTAMP:20251220T120000Z');
    expect(lines).toContain('UID:booking-b-1@doctors-portal.test');
    expect(lines).toContain('SUMMARY:Teeth Cleaning at Doctors Portal');
    expect(lines).toContain('LOCATION:Doctors Portal\\, 120 Harbor Street\\, Springfield');
    expect(lines).toContain('TZID:America/New_York');
  });

  it('uses the given time zone, and a stable UID without a booking id', () => {
    const { id: _id, ...withoutId } = booking;
    const first = icsOf(
      bookingConfirmationEmail({ clinic, booking: withoutId, timeZone: 'Europe/Berlin' }),
    );
    const again = icsOf(
      bookingConfirmationEmail({ clinic, booking: withoutId, timeZone: 'Europe/Berlin' }),
    );
    expect(first).toContain('DTSTART;TZID=Europe/Berlin:20260105T100000');
    const uid = first.find((line) => line.startsWith('UID:'));
    expect(uid).toMatch(/^UID:booking-[0-9a-f]{32}@doctors-portal\.test$/);
    expect(again).toContain(uid);
  });

  it('escapes the patient name in HTML and in the calendar text', () => {
    const mail = bookingConfirmationEmail({
      clinic,
      booking: { ...booking, patientName: hostile },
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    const description = icsOf(mail).find((line) => line.startsWith('DESCRIPTION:'));
    expect(description).toContain('Teeth Cleaning for <script>alert("x")</script> & \'Co\'');
  });

  it('refuses a slot label it cannot read', () => {
    expect(() =>
      bookingConfirmationEmail({ clinic, booking: { ...booking, slot: 'morning' } }),
    ).toThrow(/slot/);
  });
});

describe('paymentReceiptEmail', () => {
  it('shows the amount, the transaction id and the appointment, escaped in HTML', () => {
    const mail = paymentReceiptEmail({
      clinic,
      booking: { ...booking, patientName: hostile },
      transactionId: 'pi_3Nabc<"x">',
      amountDollars: 89.5,
    });
    expect(mail.subject).toBe('Payment received: $89.50 for Teeth Cleaning on Jan 5, 2026');
    expect(mail.text).toContain('Amount paid: $89.50');
    expect(mail.text).toContain('Transaction id: pi_3Nabc<"x">');
    expect(mail.html).toContain('pi_3Nabc&lt;&quot;x&quot;&gt;');
    expect(mail.html).not.toContain('<script>');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Jan 5, 2026');
      expect(part).toContain('10:00 AM - 10:30 AM');
      expect(part).toContain(clinic.name);
    }
    expect(mail.icalEvent).toBeUndefined();
  });
});

describe('refundFailedEmail', () => {
  const refund = {
    id: 're_3Nabc',
    amountDollars: 89.5,
    transactionId: 'pi_3Nxyz',
    reason: 'Refunded because the clinic cancelled the visit',
  };
  const visit = (status: BookingStatus, toldRefunded: boolean) => ({
    ...booking,
    status,
    patientEmail: 'jane@example.com',
    toldRefunded,
  });

  it('tells the clinic whose refund failed, how much, why, and answers go to the patient', () => {
    const mail = refundFailedEmail({
      clinic,
      refund,
      failureReason: 'expired_or_canceled_card',
      booking: { ...visit('cancelled', true), patientName: hostile },
    });
    expect(mail.subject).toBe(`A refund failed: ${hostile}, Jan 5, 2026`);
    expect(mail.replyTo).toBe('jane@example.com');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('$89.50');
      expect(part).toContain('re_3Nabc');
      expect(part).toContain('pi_3Nxyz');
      expect(part).toContain('the clinic cancelled the visit');
      expect(part).toContain('expired or canceled card');
      expect(part).toContain('Jan 5, 2026');
      expect(part).toContain('jane@example.com');
      expect(part).toContain('The patient was told the payment was refunded.');
    }
    expect(mail.html).not.toContain('<script>');
    expect(mail.icalEvent).toBeUndefined();
  });

  it('asks the clinic to decide for a visit that was not cancelled, or a charge with no booking', () => {
    const kept = refundFailedEmail({
      clinic,
      refund,
      failureReason: 'declined',
      booking: visit('arrived', false),
    });
    expect(kept.text).toContain('Visit: Arrived');
    expect(kept.text).toContain('Please check whether it should go back to the patient');
    expect(kept.text).not.toContain('The patient was told');
    const orphan = refundFailedEmail({ clinic, refund, failureReason: 'declined' });
    expect(orphan.subject).toBe('A refund failed: pi_3Nxyz');
    expect(orphan.replyTo).toBeUndefined();
    expect(orphan.text).toContain('could not return $89.50 (transaction pi_3Nxyz)');
  });
});

describe('signUpAttemptEmail', () => {
  const signInUrl = 'http://localhost:3000/login';
  const resetUrl =
    'http://localhost:3000/api/auth/reset-password/abc123?callbackURL=%2Freset-password';

  it('tells the owner someone tried, with a sign-in link and a reset link in both parts', () => {
    const mail = signUpAttemptEmail({
      clinic,
      name: 'Olivia Owner',
      signInUrl,
      resetUrl,
      expiresInMinutes: 60,
    });
    expect(mail.subject).toBe('Someone tried to create a Doctors Portal account with your address');
    expect(mail.text).toContain('Hello Olivia Owner,');
    expect(mail.text).toContain('tried to create a new Doctors Portal account with your email');
    expect(mail.text).toContain(`Log in: ${signInUrl}`);
    expect(mail.text).toContain(`Choose a new password: ${resetUrl}`);
    expect(mail.text).toContain('expires in 1 hour');
    expect(mail.text).toContain(clinic.address);
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(mail.html).toContain(`href="${signInUrl}"`);
    expect(mail.html).toContain(`href="${resetUrl}"`);
    expect(mail.html).toContain('<h1');
  });

  it('escapes the name in HTML and refuses links that are not http(s)', () => {
    const mail = signUpAttemptEmail({ clinic, name: hostile, signInUrl, resetUrl });
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain(`Hello ${hostile},`);
    expect(() =>
      signUpAttemptEmail({ clinic, name: 'x', signInUrl: 'javascript:alert(1)', resetUrl }),
    ).toThrow(/http\(s\) URL/);
  });
});

describe('one-tap links and the cancellation policy', () => {
  const actions = {
    confirm: 'http://portal.test/visit/c.tok?x=1&y=2',
    reschedule: 'http://portal.test/visit/r.tok',
    cancel: 'http://portal.test/visit/x.tok',
  };
  const policy = cancellationPolicy(24, clinic.phone);

  it('the confirmation has Confirm, Reschedule and Cancel as buttons and as URLs, and the policy', () => {
    const mail = bookingConfirmationEmail({ clinic, booking, actions, policy });
    expect(mail.text).toContain(
      `Confirm: ${actions.confirm}\nReschedule: ${actions.reschedule}\nCancel: ${actions.cancel}`,
    );
    expect(mail.text).toContain(policy);
    for (const [label, link] of Object.entries({
      Confirm: actions.confirm,
      Reschedule: actions.reschedule,
      Cancel: actions.cancel,
    })) {
      expect(mail.html).toMatch(
        new RegExp(`href="${escapeHtml(link).replace(/[.?]/g, '\\$&')}"[^>]*>${label}</a>`),
      );
    }
    expect(mail.html).toContain(escapeHtml(policy));
  });

  it('no links and no policy when not given', () => {
    const mail = bookingConfirmationEmail({ clinic, booking });
    expect(mail.text).not.toContain('Reschedule:');
    expect(mail.html).not.toContain('>Cancel</a>');
  });

  it('refuses a link that is not http(s)', () => {
    expect(() =>
      bookingConfirmationEmail({
        clinic,
        booking,
        actions: { ...actions, cancel: 'javascript:alert(1)' },
      }),
    ).toThrow('http(s)');
  });

  it('the receipt states the policy', () => {
    const mail = paymentReceiptEmail({
      clinic,
      booking,
      transactionId: 'pi_1',
      amountDollars: 80,
      policy,
    });
    expect(mail.text).toContain(policy);
    expect(mail.html).toContain(escapeHtml(policy));
  });
});

describe('bookingReminderEmail', () => {
  const actions = {
    confirm: 'http://portal.test/visit/c',
    reschedule: 'http://portal.test/visit/r',
    cancel: 'http://portal.test/visit/x',
  };

  it('tells the visit in clinic time, saying so, with the doctor, the links and the policy', () => {
    const mail = bookingReminderEmail({
      clinic,
      booking: { ...booking, doctorName: 'Dr. Ada Lovelace' },
      timeZone: 'Europe/London',
      url: 'http://portal.test/dashboard',
      actions,
      policy: cancellationPolicy(24, clinic.phone),
    });
    expect(mail.subject).toBe(
      'Reminder: Teeth Cleaning on Jan 5, 2026 at 10:00 AM (clinic time, Europe/London)',
    );
    expect(mail.text).toContain(
      `A reminder of your Teeth Cleaning appointment at ${clinic.name} on Jan 5, 2026 at 10:00 AM (clinic time, Europe/London) with Dr. Ada Lovelace.`,
    );
    expect(mail.text).toContain('Doctor: Dr. Ada Lovelace');
    expect(mail.text).toContain(`Cancel: ${actions.cancel}`);
    expect(mail.text).toContain(`call the clinic on ${clinic.phone}`);
    expect(mail.text).toContain('http://portal.test/dashboard');
    expect(mail.icalEvent).toBeUndefined();
    expect(mail.html).toContain('>Reschedule</a>');
  });

  it('escapes the patient and doctor names in HTML', () => {
    const mail = bookingReminderEmail({
      clinic,
      booking: { ...booking, patientName: hostile, doctorName: hostile },
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(escapeHtml(hostile));
    expect(mail.text).not.toContain('Confirm:');
  });
});
