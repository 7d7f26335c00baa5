import { createHash } from 'node:crypto';
import {
  type BookingStatus,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  STATUS_LABELS,
  slotEndMinutes,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { Config } from '../config/env.js';
import { buildCalendar } from './ics.js';
import type { MailContent } from './mailer.js';

/**
 * The portal's messages. Each has a plain-text part and an HTML part that say the same thing,
 * carries the clinic's name, and escapes every interpolated value in its HTML (names and
 * phone numbers come from users). Pure functions: sending is the mailer's.
 */

export type MailClinic = Config['clinic'];

/** A booking as the patient sees it. */
export interface BookingSummary {
  /** The booking's id; the calendar event's UID derives from it. */
  id?: string;
  patientName: string;
  treatment: string;
  /**
   * The day in the clinic's time zone. The messages write it in the spec's medium format
   * ('Jan 5, 2026'). (Queued messages keep this name: it is read from their stored JSON.)
   */
  isoDate: IsoDate;
  /** '10:00 AM - 10:30 AM'. */
  slot: string;
  priceDollars: number;
  /** The doctor the visit is with, when there is one (absent in messages queued before). */
  doctorName?: string | null | undefined;
  /**
   * The calendar event's SEQUENCE: how many times the patient has moved the booking (absent:
   * never, 0), so that an updated confirmation's .ics replaces the event by its UID.
   */
  sequence?: number | undefined;
  /** Where the booking was before the patient moved it: the confirmation then says so. */
  movedFrom?: { isoDate: IsoDate; slot: string } | undefined;
}

const COLORS = { text: '#1f2937', muted: '#4b5563', accent: '#3a4256', border: '#e5e7eb' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Only http(s) links are put into a message: never javascript: or data: URLs. */
function checkedUrl(url: string): string {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new Error(`A mail link must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  return new URL(url).toString();
}

/** What a mail client would turn into a link: an address with a scheme, or a domain name. */
const LINK_LIKE = /[a-z][a-z\d+.-]*:\/\/|\bwww\.|[a-z\d-]+\.[a-z]{2,}\b/i;

/**
 * 'Hello {name},', or 'Hello,' for an empty name or one that reads as a link: anyone may sign up
 * under any name, and the clinic's own mail must not carry a stranger's link to its patients.
 */
function greeting(name: string): string {
  const trimmed = name.trim();
  return trimmed && !LINK_LIKE.test(trimmed) ? `Hello ${trimmed},` : 'Hello,';
}

function footerText(clinic: MailClinic): string {
  return `${clinic.name}\n${clinic.address} · ${clinic.phone} · ${clinic.email}`;
}

function paragraph(html: string): string {
  return `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${COLORS.text};">${html}</p>`;
}

const BUTTON_STYLE =
  `display:inline-block;background:${COLORS.accent};color:#ffffff;padding:12px 24px;` +
  'border-radius:8px;font-size:16px;font-weight:bold;text-decoration:none;';

function button(url: string, label: string): string {
  const href = escapeHtml(url);
  return (
    `<p style="margin:24px 0;"><a href="${href}" style="${BUTTON_STYLE}">` +
    `${escapeHtml(label)}</a></p>` +
    paragraph(
      `If the button does not work, copy this link into your browser:<br>` +
        `<a href="${href}" style="color:${COLORS.accent};word-break:break-all;">${href}</a>`,
    )
  );
}

function detailsTable(caption: string, rows: Array<[string, string]>): string {
  const cells = rows
    .map(
      ([label, value]) =>
        `<tr><th scope="row" style="text-align:left;padding:8px 16px 8px 0;font-weight:bold;` +
        `color:${COLORS.muted};border-bottom:1px solid ${COLORS.border};">${escapeHtml(label)}</th>` +
        `<td style="padding:8px 0;color:${COLORS.text};border-bottom:1px solid ${COLORS.border};">` +
        `${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return (
    `<table style="border-collapse:collapse;margin:0 0 24px;font-size:16px;">` +
    `<caption style="text-align:left;font-weight:bold;padding-bottom:8px;color:${COLORS.text};">` +
    `${escapeHtml(caption)}</caption><tbody>${cells}</tbody></table>`
  );
}

function detailsText(rows: Array<[string, string]>): string {
  return rows.map(([label, value]) => `${label}: ${value}`).join('\n');
}

/** The HTML document around a message's body: one column, inline styles, real headings. */
function layout(clinic: MailClinic, title: string, body: string): string {
  const name = escapeHtml(clinic.name);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;">`,
    `<div role="article" aria-label="${escapeHtml(title)}" lang="en" style="max-width:600px;` +
      `margin:0 auto;padding:24px;background:#ffffff;">`,
    `<p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:${COLORS.accent};">${name}</p>`,
    `<h1 style="margin:0 0 16px;font-size:24px;line-height:1.3;color:${COLORS.text};">` +
      `${escapeHtml(title)}</h1>`,
    body,
    `<hr style="border:none;border-top:1px solid ${COLORS.border};margin:32px 0 16px;">`,
    `<p style="margin:0;font-size:14px;line-height:1.5;color:${COLORS.muted};">${name}<br>` +
      `${escapeHtml(clinic.address)} · ${escapeHtml(clinic.phone)} · ` +
      `<a href="mailto:${escapeHtml(clinic.email)}" style="color:${COLORS.accent};">` +
      `${escapeHtml(clinic.email)}</a></p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** One part of a message: how it reads in the plain-text part and in the HTML part. */
interface Part {
  text: string;
  html: string;
}

/** Sentences that go together: one paragraph of lines in the text part, one paragraph each in HTML. */
function said(...sentences: string[]): Part {
  return {
    text: sentences.join('\n'),
    html: sentences.map((sentence) => paragraph(escapeHtml(sentence))).join(''),
  };
}

/** A link to follow: `text` (which holds the URL) in the text part; the note and a button in HTML. */
function action(link: string, label: string, text: string, note?: string): Part {
  return { text, html: (note ? paragraph(escapeHtml(note)) : '') + button(link, label) };
}

function details(caption: string, rows: Array<[string, string]>): Part {
  return { text: detailsText(rows), html: detailsTable(caption, rows) };
}

interface Message extends Omit<MailContent, 'text' | 'html'> {
  /** The HTML part's heading and document title. */
  title: string;
  /** Whom the message greets first, by name (which may be empty); none when not given. */
  greet?: string;
  /** The parts in order; a falsy one is left out. */
  parts: Array<Part | '' | null | undefined>;
}

/**
 * Every message's frame: its parts, then the clinic's name and contacts. The text part puts a
 * blank line between parts; the HTML part puts them in the layout, under the title.
 */
function framed(
  clinic: MailClinic,
  { subject, replyTo, title, greet, parts, ...attached }: Message,
): MailContent {
  const shown = [greet === undefined ? '' : said(greeting(greet)), ...parts].filter(
    (part): part is Part => Boolean(part),
  );
  return {
    subject,
    ...(replyTo === undefined ? {} : { replyTo }),
    text: [...shown.map((part) => part.text), footerText(clinic)].join('\n\n'),
    html: layout(clinic, title, shown.map((part) => part.html).join('')),
    ...attached,
  };
}

function expiryText(expiresInMinutes: number | undefined): string {
  if (!expiresInMinutes) return '';
  const hours = expiresInMinutes / 60;
  const span = Number.isInteger(hours)
    ? `${hours} hour${hours === 1 ? '' : 's'}`
    : `${expiresInMinutes} minutes`;
  return ` The link works once and expires in ${span}.`;
}

export interface LinkEmailInput {
  clinic: MailClinic;
  /** The account holder's display name; may be empty. */
  name: string;
  url: string;
  /** When given, the message says how long the link works. */
  expiresInMinutes?: number;
}

/** A message whose point is one link: what it is for, the link, and what if it was not you. */
function linkEmail(
  { clinic, name, url, expiresInMinutes }: LinkEmailInput,
  words: {
    subject: string;
    title: string;
    intro: string;
    button: string;
    line: string;
    after: string;
  },
): MailContent {
  const link = checkedUrl(url);
  return framed(clinic, {
    subject: words.subject,
    title: words.title,
    greet: name,
    parts: [
      said(words.intro),
      action(link, words.button, `${words.line}: ${link}`),
      said(`${words.after}${expiryText(expiresInMinutes)}`),
    ],
  });
}

/** Sent after sign-up (and on request): the link verifies the email address. */
export function verificationEmail(input: LinkEmailInput): MailContent {
  const { name } = input.clinic;
  return linkEmail(input, {
    subject: `Verify your email for ${name}`,
    title: 'Verify your email address',
    intro: `Thanks for creating an account at ${name}. Please confirm your email address so that we can reach you about your appointments.`,
    button: 'Verify email address',
    line: 'Verify your email',
    after: 'If you did not sign up, you can ignore this email.',
  });
}

/** Sent on 'Forgot password?': the link opens the page that sets a new password. */
export function passwordResetEmail(input: LinkEmailInput): MailContent {
  const { name } = input.clinic;
  return linkEmail(input, {
    subject: `Reset your ${name} password`,
    title: 'Reset your password',
    intro: `We received a request to reset the password of your ${name} account.`,
    button: 'Choose a new password',
    line: 'Choose a new password',
    after: 'If you did not ask for this, you can ignore this email: your password stays the same.',
  });
}

export interface SignUpAttemptEmailInput {
  clinic: MailClinic;
  /** The existing account holder's display name; may be empty. */
  name: string;
  /** The login page. */
  signInUrl: string;
  /** A password-reset link for the account, like the one 'Forgot password?' mails. */
  resetUrl: string;
  /** When given, the message says how long the reset link works. */
  expiresInMinutes?: number;
}

/**
 * Sent to the owner of an address when someone signs up with it again: the sign-up is answered
 * as for a new address (so it tells nobody who has an account), and the owner hears of it here.
 */
export function signUpAttemptEmail({
  clinic,
  name,
  signInUrl,
  resetUrl,
  expiresInMinutes,
}: SignUpAttemptEmailInput): MailContent {
  const signIn = checkedUrl(signInUrl);
  const reset = checkedUrl(resetUrl);
  const intro = `Someone just tried to create a new ${clinic.name} account with your email address. You already have an account with us, so no new account was made and yours is unchanged.`;
  const signInNote = 'If that was you, log in with your password instead.';
  const resetNote = `Forgot your password? Choose a new one.${expiryText(expiresInMinutes)}`;
  const after =
    'If it was not you, you can ignore this email: nobody can use your account without your password.';
  return framed(clinic, {
    subject: `Someone tried to create a ${clinic.name} account with your address`,
    title: 'Someone tried to create an account with your address',
    greet: name,
    parts: [
      said(intro),
      action(signIn, 'Log in', `${signInNote} Log in: ${signIn}`, signInNote),
      action(
        reset,
        'Choose a new password',
        `${resetNote} Choose a new password: ${reset}`,
        resetNote,
      ),
      said(after),
    ],
  });
}

/** 'Eastern Time' for America/New_York; the IANA name when the runtime has no better one. */
const zoneLabelFormats = new Map<string, Intl.DateTimeFormat>();

function zoneLabel(timeZone: string, isoDate: string): string {
  const noon = new Date(`${isoDate}T12:00:00Z`);
  // Building a formatter costs far more than using one: one per zone, kept.
  let format = zoneLabelFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longGeneric' });
    zoneLabelFormats.set(timeZone, format);
  }
  const label = format.formatToParts(noon).find((part) => part.type === 'timeZoneName')?.value;
  return label && !label.startsWith('GMT') ? label : timeZone;
}

function bookingRows(booking: BookingSummary, timeZone: string): Array<[string, string]> {
  return [
    ['Treatment', booking.treatment],
    ['Date', formatMediumDate(booking.isoDate)],
    ['Time', `${booking.slot} (${zoneLabel(timeZone, booking.isoDate)})`],
    ...(booking.doctorName ? [['Doctor', booking.doctorName] as [string, string]] : []),
    ['Patient', booking.patientName],
  ];
}

/**
 * A booking's calendar UID, 'booking-{id}@{the clinic's mail domain}': the same in the
 * confirmation's .ics and in the doctor's calendar feed, so that a calendar holds one event.
 */
export function bookingCalendarUid(clinicEmail: string, key: string): string {
  return `booking-${key}@${clinicEmail.slice(clinicEmail.lastIndexOf('@') + 1)}`;
}

function calendarUid(clinic: MailClinic, booking: BookingSummary): string {
  const key =
    booking.id ??
    createHash('sha256')
      .update(
        JSON.stringify([booking.isoDate, booking.slot, booking.treatment, booking.patientName]),
      )
      .digest('hex')
      .slice(0, 32);
  return bookingCalendarUid(clinic.email, key);
}

/** What a message about a booking is given. */
interface BookingMailInput {
  clinic: MailClinic;
  booking: BookingSummary;
  /** The clinic's IANA time zone; defaults to clinic.timeZone. */
  timeZone?: string;
  /** Where the patient sees (and pays) their appointments: My Appointments. */
  url?: string;
  /** DTSTAMP of the calendar event; defaults to now. */
  now?: Date;
  /** The one-tap links answering for the booking, when the portal offers them. */
  actions?: BookingActions | null | undefined;
  /** The clinic's cancellation policy, in its one sentence (contract `cancellationPolicy`). */
  policy?: string | undefined;
}

/** The signed one-tap links of a booking's mail: each works once, without signing in. */
export interface BookingActions {
  confirm: string;
  reschedule: string;
  cancel: string;
}

/**
 * 'Confirm', 'Reschedule' and 'Cancel' side by side in HTML, and one line each with its URL in
 * the text part. Shared by the confirmation and the reminder.
 */
function bookingActions(actions: BookingActions): Part {
  const links: Array<[string, string]> = [
    ['Confirm', checkedUrl(actions.confirm)],
    ['Reschedule', checkedUrl(actions.reschedule)],
    ['Cancel', checkedUrl(actions.cancel)],
  ];
  const note = 'Answer with one tap, no sign-in needed (each link works once):';
  const anchors = links
    .map(
      ([label, url]) =>
        `<a href="${escapeHtml(url)}" style="${BUTTON_STYLE}margin:0 8px 8px 0;">${label}</a>`,
    )
    .join('');
  return {
    text: [note, ...links.map(([label, url]) => `${label}: ${url}`)].join('\n'),
    html: `${paragraph(escapeHtml(note))}<p style="margin:0 0 24px;">${anchors}</p>`,
  };
}

/**
 * What a message about a booking starts from: its link checked, its date in words, its details
 * rows, and its calendar event (`method` PUBLISH adds it to the patient's calendar; CANCEL, by
 * the same UID, takes it out). A slot label that is no slot is a bug upstream: it throws.
 */
function aboutBooking({ clinic, booking, timeZone = clinic.timeZone, url, now }: BookingMailInput) {
  const startMinutes = slotStartMinutes(booking.slot);
  const endMinutes = slotEndMinutes(booking.slot);
  if (startMinutes === null || endMinutes === null) {
    throw new Error(`Not a slot label: ${JSON.stringify(booking.slot)}`);
  }
  const link = url === undefined ? undefined : checkedUrl(url);
  const calendarEvent = (event: {
    summary: string;
    description: string;
    method: 'PUBLISH' | 'CANCEL';
    url?: string | undefined;
  }): NonNullable<MailContent['icalEvent']> => ({
    filename: 'appointment.ics',
    method: event.method,
    content: buildCalendar({
      uid: calendarUid(clinic, booking),
      date: booking.isoDate,
      startMinutes,
      endMinutes,
      timeZone,
      summary: event.summary,
      location: `${clinic.name}, ${clinic.address}`,
      description: event.description,
      organizer: { name: clinic.name, email: clinic.email },
      ...(event.url ? { url: event.url } : {}),
      method: event.method,
      // A cancellation outranks the event as last sent (moved `sequence` times).
      ...(event.method === 'CANCEL'
        ? { sequence: (booking.sequence ?? 0) + 1 }
        : booking.sequence !== undefined
          ? { sequence: booking.sequence }
          : {}),
      ...(now ? { stamp: now } : {}),
    }),
  });
  const mediumDate = formatMediumDate(booking.isoDate);
  return {
    link,
    mediumDate,
    rows: bookingRows(booking, timeZone),
    /** 'Appointment confirmed: Teeth Cleaning on Jan 5, 2026 at 10:00 AM - 10:30 AM'. */
    subject: (outcome: string) =>
      `Appointment ${outcome}: ${booking.treatment} on ${mediumDate} at ${booking.slot}`,
    /** The note and a link to My Appointments, when the message has the link. */
    toMyAppointments: (note: string) =>
      link && action(link, 'Open My Appointments', `${note} ${link}`, note),
    calendarEvent,
  };
}

export type BookingConfirmationInput = BookingMailInput;

/**
 * The confirmation's calendar event, also downloaded from My Appointments ('Add to calendar'):
 * one UID and SEQUENCE, so that either copy updates the other in a calendar.
 */
export function bookingConfirmationEvent(
  input: BookingConfirmationInput,
): NonNullable<MailContent['icalEvent']> {
  const { clinic, booking } = input;
  const { mediumDate, calendarEvent, link } = aboutBooking(input);
  const withDoctor = booking.doctorName ? ` with ${booking.doctorName}` : '';
  return calendarEvent({
    summary: `${booking.treatment}${withDoctor} at ${clinic.name}`,
    description: [
      `${booking.treatment} for ${booking.patientName}`,
      `${mediumDate}, ${booking.slot}`,
      ...(booking.doctorName ? [`Doctor: ${booking.doctorName}`] : []),
      `Price: ${formatDollars(booking.priceDollars)}`,
      `Questions: ${clinic.phone}`,
    ].join('\n'),
    method: 'PUBLISH',
    url: link,
  });
}

/** Sent after a booking: the appointment's details and an .ics event in the clinic's zone. */
export function bookingConfirmationEmail(input: BookingConfirmationInput): MailContent {
  const { clinic, booking } = input;
  const { mediumDate, subject, toMyAppointments, ...about } = aboutBooking(input);
  const price = formatDollars(booking.priceDollars);
  const rows: Array<[string, string]> = [
    ...about.rows,
    ['Price', price],
    ['Where', `${clinic.name}, ${clinic.address}`],
  ];
  const withDoctor = booking.doctorName ? ` with ${booking.doctorName}` : '';
  const { movedFrom } = booking;
  const intro = movedFrom
    ? `Your appointment at ${clinic.name} has moved from ${formatMediumDate(movedFrom.isoDate)} at ${movedFrom.slot} to ${mediumDate} at ${booking.slot}${withDoctor}.`
    : `Your appointment at ${clinic.name} is set on ${mediumDate} at ${booking.slot}${withDoctor}.`;
  const calendarNote = movedFrom
    ? 'The attached calendar event moves the appointment in your calendar.'
    : 'The attached calendar event adds the appointment to your calendar.';
  const change = `To change or cancel, call us at ${clinic.phone} or reply to this email.`;
  return framed(clinic, {
    subject: subject(movedFrom ? 'moved' : 'confirmed'),
    title: movedFrom ? 'Your appointment has moved' : 'Your appointment is booked',
    greet: booking.patientName,
    parts: [
      said(intro),
      details('Appointment', rows),
      input.actions && bookingActions(input.actions),
      toMyAppointments('You can review and pay for your appointment in My Appointments.'),
      input.policy && said(input.policy),
      said(calendarNote, change),
    ],
    icalEvent: bookingConfirmationEvent(input),
  });
}

/** '10:00 AM (clinic time, Europe/London)': a reminder says whose clock it reads. */
function clinicTimeLabel(slot: string, timeZone: string): string {
  const start = slot.split(' - ', 1)[0] ?? slot;
  return `${start} (clinic time, ${timeZone})`;
}

export type BookingReminderInput = BookingMailInput;

/**
 * Sent at the clinic's reminder lead before the visit: when and where, with whom, the one-tap
 * links and the cancellation policy. No calendar event: the confirmation's is still current.
 */
export function bookingReminderEmail(input: BookingReminderInput): MailContent {
  const { clinic, booking, timeZone = clinic.timeZone } = input;
  const { mediumDate, toMyAppointments, rows } = aboutBooking(input);
  const at = clinicTimeLabel(booking.slot, timeZone);
  const withDoctor = booking.doctorName ? ` with ${booking.doctorName}` : '';
  const intro = `A reminder of your ${booking.treatment} appointment at ${clinic.name} on ${mediumDate} at ${at}${withDoctor}.`;
  return framed(clinic, {
    subject: `Reminder: ${booking.treatment} on ${mediumDate} at ${at}`,
    title: 'Your appointment is coming up',
    greet: booking.patientName,
    parts: [
      said(intro),
      details('Appointment', [...rows, ['Where', `${clinic.name}, ${clinic.address}`]]),
      input.actions && bookingActions(input.actions),
      toMyAppointments('Your appointments are in My Appointments.'),
      input.policy && said(input.policy),
      said(`Questions? Call us at ${clinic.phone} or reply to this email.`),
    ],
  });
}

export interface PaymentReceiptInput {
  clinic: MailClinic;
  booking: BookingSummary;
  transactionId: string;
  amountDollars: number;
  /** The clinic's IANA time zone; defaults to clinic.timeZone. */
  timeZone?: string;
  /** The clinic's cancellation policy, in its one sentence (contract `cancellationPolicy`). */
  policy?: string | undefined;
}

/** Sent when the payment provider has confirmed a booking's payment. */
export function paymentReceiptEmail({
  clinic,
  booking,
  transactionId,
  amountDollars,
  timeZone = clinic.timeZone,
  policy,
}: PaymentReceiptInput): MailContent {
  const amount = formatDollars(amountDollars);
  const rows: Array<[string, string]> = [
    ['Amount paid', amount],
    ['Transaction id', transactionId],
    ...bookingRows(booking, timeZone),
  ];
  const intro = `Thank you: we received your payment of ${amount} for your appointment at ${clinic.name}.`;
  const keep = 'Please keep this email as your receipt.';
  return framed(clinic, {
    subject: `Payment received: ${amount} for ${booking.treatment} on ${formatMediumDate(booking.isoDate)}`,
    title: 'Payment received',
    greet: booking.patientName,
    parts: [said(intro), details('Receipt', rows), said(keep), policy && said(policy)],
  });
}

export interface BookingCancellationInput extends BookingMailInput {
  /** Why the clinic cancelled, in its own words. */
  reason: string;
  /** The patient cancelled it themselves (in time): no apology and no reason. */
  cancelledBy?: 'clinic' | 'patient' | undefined;
  /** The refund of the booking's payment, when it was paid. */
  refund?: { id: string; amountDollars: number } | null;
}

/**
 * Sent when the clinic (or the patient) cancels a booking: the clinic's reason, the refund when it was paid, and an .ics
 * cancellation (METHOD:CANCEL) of the confirmation's event, by the same UID, which takes it out
 * of the patient's calendar.
 */
export function bookingCancellationEmail(input: BookingCancellationInput): MailContent {
  const { clinic, booking, reason, refund } = input;
  const { mediumDate, subject, toMyAppointments, calendarEvent, ...about } = aboutBooking(input);
  const byPatient = input.cancelledBy === 'patient';
  const rows: Array<[string, string]> = [
    ...about.rows,
    ...(byPatient ? [] : ([['Reason', reason]] as Array<[string, string]>)),
    ...(refund
      ? ([
          ['Refunded', formatDollars(refund.amountDollars)],
          ['Refund id', refund.id],
        ] as Array<[string, string]>)
      : []),
  ];
  const intro = byPatient
    ? `As you asked, your ${booking.treatment} appointment on ${mediumDate} at ${booking.slot} is cancelled.`
    : `We are sorry: ${clinic.name} had to cancel your ${booking.treatment} appointment on ${mediumDate} at ${booking.slot}.`;
  const refundNote = refund
    ? `Your payment of ${formatDollars(refund.amountDollars)} has been refunded in full to your card (refund id ${refund.id}). It may take a few days to show on your statement.`
    : '';
  const calendarNote = 'The attached calendar update removes the appointment from your calendar.';
  const questions = `Questions? Call us at ${clinic.phone} or reply to this email.`;
  return framed(clinic, {
    subject: subject('cancelled'),
    title: 'Your appointment is cancelled',
    greet: booking.patientName,
    parts: [
      said(intro),
      details('Cancelled appointment', rows),
      refundNote && said(refundNote),
      toMyAppointments(
        'My Appointments shows the cancellation, and you are welcome to book another time.',
      ),
      said(calendarNote, questions),
    ],
    icalEvent: calendarEvent({
      summary: `Cancelled: ${booking.treatment} at ${clinic.name}`,
      description: byPatient ? 'Cancelled by you' : `Cancelled by ${clinic.name}: ${reason}`,
      method: 'CANCEL',
    }),
  });
}

export interface RefundFailedInput {
  clinic: MailClinic;
  refund: {
    id: string;
    amountDollars: number;
    /** The payment it gave back ('pi_…'). */
    transactionId: string;
    /** Why it was made, as its record says ('Refunded because its booking was cancelled'). */
    reason: string;
  };
  /** The provider's reason, as it gives it ('expired_or_canceled_card'). */
  failureReason: string;
  /**
   * The booking it was for, as it is now (none for a charge that named no booking the portal
   * holds), and whether its cancellation told the patient this money was back.
   */
  booking?: BookingSummary & { status: BookingStatus; patientEmail: string; toldRefunded: boolean };
}

/**
 * Sent to the clinic (CLINIC_EMAIL) when the card provider reports that a refund it accepted
 * has failed: the money is still with the clinic. Where the cancellation told the patient it was
 * back, it must go back another way; otherwise the clinic decides whether it should.
 */
export function refundFailedEmail({
  clinic,
  refund,
  failureReason,
  booking,
}: RefundFailedInput): MailContent {
  const amount = formatDollars(refund.amountDollars);
  const rows: Array<[string, string]> = [
    ...(booking
      ? ([
          ...bookingRows(booking, clinic.timeZone),
          ['Patient email', booking.patientEmail],
          ['Visit', STATUS_LABELS[booking.status]],
        ] as Array<[string, string]>)
      : []),
    ['Amount', amount],
    ['Transaction id', refund.transactionId],
    ['Refund id', refund.id],
    ['Refunded because', refund.reason.replace(/^Refunded because /, '')],
    ['Reason given', failureReason.replaceAll('_', ' ')],
  ];
  const intro = booking
    ? `The card provider could not return ${amount} to ${booking.patientName} (${booking.treatment}, ${formatMediumDate(booking.isoDate)}).`
    : `The card provider could not return ${amount} (transaction ${refund.transactionId}).`;
  const ask = booking?.toldRefunded
    ? 'The patient was told the payment was refunded. Please return it another way (a new refund from the provider’s dashboard, or by bank transfer) and let them know.'
    : 'The money is still with the clinic. Please check whether it should go back to the patient and, if so, return it another way.';
  return framed(clinic, {
    subject: booking
      ? `A refund failed: ${booking.patientName}, ${formatMediumDate(booking.isoDate)}`
      : `A refund failed: ${refund.transactionId}`,
    ...(booking ? { replyTo: booking.patientEmail } : {}),
    title: 'A refund failed',
    parts: [
      said(intro, ask),
      details('Failed refund', rows),
      booking && said(`Reply to this email to write to ${booking.patientEmail}.`),
    ],
  });
}

/** A message a visitor sent through the landing page's Contact Us form. */
export interface ContactMessageSummary {
  id: string;
  email: string;
  subject: string;
  message: string;
  /** ISO time. */
  receivedAt: string;
}

export interface ContactMessageEmailInput {
  clinic: MailClinic;
  message: ContactMessageSummary;
  /** Where the clinic's administrators read their messages (the back office). */
  url?: string;
}

/**
 * Sent to the clinic (CLINIC_EMAIL) when a visitor uses the Contact Us form. Replies go to the
 * visitor: the message's Reply-To is their address.
 */
export function contactMessageEmail({
  clinic,
  message,
  url,
}: ContactMessageEmailInput): MailContent {
  const link = url === undefined ? undefined : checkedUrl(url);
  const subjectLine = message.subject.trim() || 'A message from the website';
  const received = new Intl.DateTimeFormat('en-US', {
    timeZone: clinic.timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(message.receivedAt));
  const rows: Array<[string, string]> = [
    ['From', message.email],
    ['Subject', subjectLine],
    ['Received', received],
  ];
  const title = 'A message from the Contact Us form';
  const body = message.message.trim() || '(no message)';
  const replyNote = `Reply to this email to answer ${message.email}.`;
  const linkNote = link ? 'All messages are in the back office under Messages:' : '';
  return framed(clinic, {
    subject: `Contact form: ${subjectLine}`,
    replyTo: message.email,
    title,
    parts: [
      // The HTML part has the title as its heading already.
      { text: title, html: '' },
      details('Message', rows),
      {
        text: body,
        html:
          `<div style="margin:0 0 24px;padding:16px;border-left:4px solid ${COLORS.border};` +
          `white-space:pre-wrap;font-size:16px;line-height:1.5;color:${COLORS.text};">` +
          `${escapeHtml(body)}</div>`,
      },
      said(replyNote),
      link && action(link, 'Open Messages', `${linkNote} ${link}`),
    ],
  });
}

export interface WaitlistSlotFreeInput {
  clinic: MailClinic;
  /** The waiting patient's name; may be empty. */
  name: string;
  treatment: string;
  isoDate: IsoDate;
  slot: string;
  /** The booking page with this slot's form open. */
  url: string;
}

/**
 * Sent to the first few patients waiting for a treatment on a date when one of its slots is
 * freed: the slot, and a link that opens its booking form. The first to book it has it.
 */
export function waitlistSlotFreeEmail(input: WaitlistSlotFreeInput): MailContent {
  const { clinic, treatment, slot } = input;
  const link = checkedUrl(input.url);
  const mediumDate = formatMediumDate(input.isoDate);
  const time = `${slot} (${zoneLabel(clinic.timeZone, input.isoDate)})`;
  return framed(clinic, {
    subject: `A slot for ${treatment} is free on ${mediumDate}`,
    title: 'A slot you are waiting for is free',
    greet: input.name,
    parts: [
      said(
        `A slot for ${treatment} has just become free at ${clinic.name}: ${mediumDate}, ${time}.`,
        'A few patients on the waitlist hear of it at once: the first to book it has it.',
      ),
      details('Free slot', [
        ['Treatment', treatment],
        ['Date', mediumDate],
        ['Time', time],
      ]),
      action(link, 'Book this slot', `Book this slot: ${link}`),
      said('If it is taken, you stay on the waitlist and hear of the next free slot.'),
    ],
  });
}
