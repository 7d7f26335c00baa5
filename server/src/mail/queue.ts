import { cancellationPolicy, type IsoDate } from '@doctors-portal/contract';
import { type Kysely, sql } from 'kysely';
import { cancellationTerms, isLive } from '../bookings/booking-rules.js';
import { clinicMoment, clock, hasStarted } from '../bookings/clock.js';
import { bookingRulesOf } from '../clinic/calendar.js';
import { compiledInsert } from '../db/compiled-once.js';
import type { Engine } from '../db/database.js';
import { orderedId } from '../db/ordered-id.js';
import type { Database } from '../db/schema.js';
import type { Mailer, MailLogger, MailMessage } from './mailer.js';
import {
  type BookingActions,
  type BookingSummary,
  bookingCalendarUid,
  bookingCancellationEmail,
  bookingConfirmationEmail,
  bookingReminderEmail,
  type ContactMessageSummary,
  contactMessageEmail,
  type MailClinic,
  paymentReceiptEmail,
  type RefundFailedInput,
  refundFailedEmail,
  type WaitlistSlotFreeInput,
  waitlistSlotFreeEmail,
} from './templates.js';

/** What the portal sends from the queue: what each message says, written when it is sent. */
export type QueuedMail =
  | { kind: 'contact-message'; to: string; message: ContactMessageSummary }
  | { kind: 'booking-confirmation'; to: string; booking: BookingSummary }
  | {
      kind: 'payment-receipt';
      to: string;
      booking: BookingSummary;
      transactionId: string;
      amountDollars: number;
    }
  | {
      kind: 'booking-cancellation';
      to: string;
      booking: BookingSummary;
      reason: string;
      /** Who cancelled; the clinic when left out (mail queued before the patient could). */
      cancelledBy?: 'clinic' | 'patient';
      refund: { id: string; amountDollars: number } | null;
    }
  /** Due at the clinic's reminder lead before the visit (mail/reminders.ts). */
  | { kind: 'booking-reminder'; to: string; booking: BookingSummary & { id: string } }
  /** To the clinic: the provider reported that a refund failed (payments/refund-failure.ts). */
  | ({ kind: 'refund-failed'; to: string } & Omit<RefundFailedInput, 'clinic'>)
  /** A freed slot, to a patient on its waitlist (waitlist/rules.ts). */
  | ({ kind: 'waitlist-slot-free'; to: string } & Omit<WaitlistSlotFreeInput, 'clinic'>);

/** How long a message taken by a sender is left to it before another may try it. */
const LEASE_MS = 5 * 60_000;
/** How often each instance looks for messages other instances queued, or due for a retry. */
const POLL_MS = 5_000;
/** After this many failed attempts the message stays in the table with its error. */
export const MAX_ATTEMPTS = 10;
/** How often the delete of a sent message is tried (1 s, then 2 s apart) before it is left. */
const FORGET_ATTEMPTS = 3;
/** 30 s after the first failure, doubling, at most an hour. */
const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

export interface MailQueueOptions {
  db: Kysely<Database>;
  engine: Engine;
  mailer: Mailer;
  clinic: MailClinic;
  /** Where the patient sees their appointments, linked from the confirmation. */
  appointmentsUrl: string;
  /** Where the clinic's administrators read the Contact Us messages. */
  messagesUrl?: string;
  /** At most this many messages a second are handed to the mailer. */
  ratePerSecond: number;
  log: MailLogger;
  /**
   * The one-tap links of a booking's confirmation and reminder, made when the message is sent
   * (so that no token is stored); null or absent: the message has none.
   */
  actionLinks?: (booking: {
    id: string;
    sequence: number;
    date: IsoDate;
    slot: string;
  }) => Promise<BookingActions | null>;
}

/** When a queued message is due, and the booking it belongs to (a reminder's, withdrawn with it). */
export interface QueuedWhen {
  /** Not sent before this moment; now by default. */
  sendAfter?: Date;
  bookingId?: string;
}

export interface MailQueue {
  /**
   * Stores a message for sending, in `db`'s transaction when it is one: the message exists if
   * and only if what it tells of was committed. Call `wake` once that transaction has.
   */
  add(db: Kysely<Database>, mail: QueuedMail, when?: QueuedWhen): Promise<void>;
  /** Deletes the booking's pending reminder, in `db`'s transaction when it is one. */
  withdrawReminder(db: Kysely<Database>, bookingId: string): Promise<void>;
  /** Sends what is due now, rather than at the next poll. */
  wake(): void;
  /** Stops sending; resolves once the message in hand (if any) is dealt with. */
  close(): Promise<void>;
}

/** A message queued: compiled once, as every booking queues two. */
const insertMail = compiledInsert('mail_queue', [
  'id',
  'kind',
  'payload',
  'created_at',
  'send_after',
  'booking_id',
]);

/**
 * The portal's outgoing mail, kept in the database until the relay has taken it: a message
 * survives a restart or a relay that is down, and a burst of bookings is mailed out at the
 * relay's pace instead of in the requests that made them. Any number of instances may send
 * from the same table; each message is taken by one at a time (a lease), and sent at least once.
 */
export function mailQueue(options: MailQueueOptions): MailQueue {
  const { db, mailer, log } = options;
  const spacingMs = 1000 / options.ratePerSecond;
  let draining: Promise<void> | null = null;
  let again = false;
  let closed = false;
  const poll = setInterval(() => wake(), POLL_MS);
  poll.unref();

  /** The booking's one-tap links, when the portal makes them. */
  async function actionsFor(booking: BookingSummary) {
    if (!options.actionLinks || booking.id === undefined) return null;
    return options.actionLinks({
      id: booking.id,
      sequence: booking.sequence ?? 0,
      date: booking.isoDate,
      slot: booking.slot,
    });
  }

  /**
   * The booking a mail that states the cancellation policy tells of, as it is now: read once a
   * message, for `stillDue` and for the policy.
   */
  async function bookingNow(mail: QueuedMail) {
    const states =
      mail.kind === 'booking-confirmation' ||
      mail.kind === 'booking-reminder' ||
      mail.kind === 'payment-receipt';
    if (!states || mail.booking.id === undefined) return undefined;
    return db
      .selectFrom('booking')
      .select(['status', 'sequence', 'patient_id', 'date', 'slot', 'moved_late_at'])
      .where('id', '=', mail.booking.id)
      .executeTakeFirst();
  }
  type BookingNow = Awaited<ReturnType<typeof bookingNow>>;

  /**
   * The cancellation policy a booking's mail states, as things stand when it is sent: for a live
   * visit already past the notice (a reminder sent at a lead no longer than the notice is one),
   * also that it can no longer be cancelled online, and the number to call.
   */
  async function policyFor(booking: BookingNow) {
    const { cancellationNoticeHours } = await bookingRulesOf(db);
    const clinicPhone = options.clinic.phone;
    if (!booking) return cancellationPolicy(cancellationNoticeHours, clinicPhone);
    const moment = clinicMoment(options.clinic.timeZone, clock.now());
    return cancellationTerms(booking, moment, { cancellationNoticeHours, clinicPhone });
  }

  async function content(mail: QueuedMail, booking: BookingNow) {
    switch (mail.kind) {
      case 'contact-message':
        return contactMessageEmail({
          clinic: options.clinic,
          message: mail.message,
          url: options.messagesUrl,
        });
      case 'booking-confirmation':
        return bookingConfirmationEmail({
          clinic: options.clinic,
          booking: mail.booking,
          url: options.appointmentsUrl,
          actions: await actionsFor(mail.booking),
          policy: await policyFor(booking),
        });
      case 'booking-reminder':
        return {
          ...bookingReminderEmail({
            clinic: options.clinic,
            booking: mail.booking,
            url: options.appointmentsUrl,
            actions: await actionsFor(mail.booking),
            policy: await policyFor(booking),
          }),
          // The same Message-ID at every attempt: see docs/decisions/022.
          messageId: `<${bookingCalendarUid(options.clinic.email, `${mail.booking.id}-reminder-${mail.booking.sequence ?? 0}`)}>`,
        };
      case 'payment-receipt':
        return paymentReceiptEmail({
          clinic: options.clinic,
          booking: mail.booking,
          transactionId: mail.transactionId,
          amountDollars: mail.amountDollars,
          policy: await policyFor(booking),
        });
      case 'booking-cancellation':
        return bookingCancellationEmail({
          clinic: options.clinic,
          booking: mail.booking,
          reason: mail.reason,
          cancelledBy: mail.cancelledBy,
          refund: mail.refund,
          url: options.appointmentsUrl,
        });
      case 'refund-failed':
        return refundFailedEmail({ ...mail, clinic: options.clinic });
      case 'waitlist-slot-free':
        return waitlistSlotFreeEmail({ ...mail, clinic: options.clinic });
    }
  }

  async function render(mail: QueuedMail, booking: BookingNow): Promise<MailMessage> {
    return { to: mail.to, ...(await content(mail, booking)) };
  }

  /**
   * Whether a message still tells of something to come. A reminder: its booking is booked or
   * confirmed, not moved since, not begun, and its patient still has an account (a removed
   * account's paid visit stays on the clinic's records, but the portal no longer mails its former
   * holder). A confirmation (of a booking or of its move): its booking is not cancelled nor moved
   * again since, and its patient still has an account; a later one, or the cancellation notice,
   * tells what holds now, and an earlier time arriving after it would mislead. A waitlist offer:
   * its slot has not begun. Moves and cancellations withdraw their reminder in their own
   * transaction; this is the last check, and the one that holds when the queue is late (the
   * portal was down, the relay refused, a failed message was retried).
   */
  function stillDue(mail: QueuedMail, booking: BookingNow): boolean {
    const moment = () => clinicMoment(options.clinic.timeZone, clock.now());
    switch (mail.kind) {
      case 'waitlist-slot-free':
        return !hasStarted(mail.isoDate, mail.slot, moment());
      case 'booking-confirmation':
        // A booking no longer stored tells nothing against it: the message goes as it was queued.
        return booking === undefined || (booking.status !== 'cancelled' && asQueued(mail, booking));
      case 'booking-reminder':
        return booking !== undefined && isLive(booking, moment()) && asQueued(mail, booking);
      default:
        return true;
    }
  }

  /** The booking is at the time the message tells of, and its patient still has an account. */
  function asQueued(mail: { booking: BookingSummary }, booking: NonNullable<BookingNow>): boolean {
    return booking.sequence === (mail.booking.sequence ?? 0) && booking.patient_id !== null;
  }

  /** Takes the oldest message that is due, leasing it to this instance. */
  async function take() {
    const now = new Date();
    let due = db
      .selectFrom('mail_queue')
      .select('id')
      .where('send_after', '<=', now.toISOString())
      .orderBy('send_after')
      .limit(1);
    if (options.engine === 'postgres') due = due.forUpdate().skipLocked();
    return db
      .updateTable('mail_queue')
      .set({
        send_after: new Date(now.getTime() + LEASE_MS).toISOString(),
        attempts: sql<number>`attempts + 1`,
        // In a sender's hands it is not failed (mail/failures.ts); a failure writes it again.
        last_error: null,
      })
      .where('id', '=', due)
      .returningAll()
      .executeTakeFirst();
  }

  type Taken = NonNullable<Awaited<ReturnType<typeof take>>>;

  async function sendOne(row: Taken): Promise<void> {
    const mail = JSON.parse(row.payload) as QueuedMail;
    let message: MailMessage | null;
    try {
      const booking = await bookingNow(mail);
      message = stillDue(mail, booking) ? await render(mail, booking) : null;
      if (message) await mailer.send(message);
    } catch (error) {
      await failed(row, error);
      return;
    }
    // The relay has it (or it is no longer due): out of the queue at once, nothing in between
    // (docs/decisions/022).
    await forget(row);
    if (!message) {
      log.info(
        { mail: { id: row.id, kind: row.kind } },
        `dropped a ${row.kind} message no longer due`,
      );
    }
  }

  /**
   * Deletes a message the relay took. Should the database not answer, the delete is tried again
   * rather than the message counted as failed (and sent again at its next attempt); only if it
   * never answers is the message sent again, once its lease ends.
   */
  async function forget(row: Taken): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
        return;
      } catch (error) {
        if (attempt === FORGET_ATTEMPTS) {
          log.error(
            { mail: { id: row.id, kind: row.kind }, err: error },
            `sent a ${row.kind} message but could not remove it from the queue; it is sent again when its lease ends`,
          );
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      }
    }
  }

  /** Records a failed attempt: tried again after a backoff, or given up after the last. */
  async function failed(row: Taken, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    const giveUp = row.attempts >= MAX_ATTEMPTS;
    await db
      .updateTable('mail_queue')
      .set({
        send_after: giveUp ? null : new Date(Date.now() + retryDelayMs(row.attempts)).toISOString(),
        last_error: reason,
      })
      .where('id', '=', row.id)
      .execute();
    const fields = { mail: { id: row.id, kind: row.kind, attempts: row.attempts }, err: error };
    if (giveUp) log.error(fields, `gave up sending a ${row.kind} message`);
    else log.warn(fields, `could not send a ${row.kind} message; it will be tried again`);
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      for (let row = await take(); row && !closed; row = await take()) {
        await sendOne(row);
        if (!closed) await new Promise((resolve) => setTimeout(resolve, spacingMs));
      }
    } while (again && !closed);
  }

  function wake(): void {
    if (closed) return;
    if (draining) {
      again = true;
      return;
    }
    draining = drain()
      .catch((error: unknown) => log.error({ err: error }, 'the mail queue could not be read'))
      .finally(() => {
        draining = null;
        // A wake between the drain's last look and here would otherwise wait for the poll.
        if (again) wake();
      });
  }

  wake();
  return {
    async add(target, mail, when = {}) {
      const now = new Date();
      await insertMail(target, {
        id: orderedId(),
        kind: mail.kind,
        payload: JSON.stringify(mail),
        created_at: now.toISOString(),
        send_after: (when.sendAfter ?? now).toISOString(),
        booking_id: when.bookingId ?? null,
      });
    },
    async withdrawReminder(target, bookingId) {
      await target
        .deleteFrom('mail_queue')
        .where('booking_id', '=', bookingId)
        .where('kind', '=', 'booking-reminder')
        .execute();
    },
    wake,
    async close() {
      closed = true;
      clearInterval(poll);
      await draining;
    },
  };
}
