import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Engine } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { Mailer, MailLogger, MailMessage } from './mailer.js';
import {
  type BookingSummary,
  bookingCancellationEmail,
  bookingConfirmationEmail,
  type ContactMessageSummary,
  contactMessageEmail,
  type MailClinic,
  paymentReceiptEmail,
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
      refund: { id: string; amountDollars: number } | null;
    };

/** How long a message taken by a sender is left to it before another may try it. */
const LEASE_MS = 5 * 60_000;
/** How often each instance looks for messages other instances queued, or due for a retry. */
const POLL_MS = 5_000;
/** After this many failed attempts the message stays in the table with its error. */
export const MAX_ATTEMPTS = 10;
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
}

export interface MailQueue {
  /**
   * Stores a message for sending, in `db`'s transaction when it is one: the message exists if
   * and only if what it tells of was committed. Call `wake` once that transaction has.
   */
  add(db: Kysely<Database>, mail: QueuedMail): Promise<void>;
  /** Sends what is due now, rather than at the next poll. */
  wake(): void;
  /** Stops sending; resolves once the message in hand (if any) is dealt with. */
  close(): Promise<void>;
}

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

  function content(mail: QueuedMail) {
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
        });
      case 'payment-receipt':
        return paymentReceiptEmail({
          clinic: options.clinic,
          booking: mail.booking,
          transactionId: mail.transactionId,
          amountDollars: mail.amountDollars,
        });
      case 'booking-cancellation':
        return bookingCancellationEmail({
          clinic: options.clinic,
          booking: mail.booking,
          reason: mail.reason,
          refund: mail.refund,
          url: options.appointmentsUrl,
        });
    }
  }

  function render(mail: QueuedMail): MailMessage {
    return { to: mail.to, ...content(mail) };
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
      })
      .where('id', '=', due)
      .returningAll()
      .executeTakeFirst();
  }

  async function sendOne(row: NonNullable<Awaited<ReturnType<typeof take>>>): Promise<void> {
    const mail = JSON.parse(row.payload) as QueuedMail;
    try {
      await mailer.send(render(mail));
      await db.deleteFrom('mail_queue').where('id', '=', row.id).execute();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= MAX_ATTEMPTS;
      await db
        .updateTable('mail_queue')
        .set({
          send_after: giveUp
            ? null
            : new Date(Date.now() + retryDelayMs(row.attempts)).toISOString(),
          last_error: reason,
        })
        .where('id', '=', row.id)
        .execute();
      const fields = { mail: { id: row.id, kind: row.kind, attempts: row.attempts }, err: error };
      if (giveUp) log.error(fields, `gave up sending a ${row.kind} message`);
      else log.warn(fields, `could not send a ${row.kind} message; it will be tried again`);
    }
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
      });
  }

  wake();
  return {
    async add(target, mail) {
      const now = new Date().toISOString();
      await target
        .insertInto('mail_queue')
        .values({
          id: randomUUID(),
          kind: mail.kind,
          payload: JSON.stringify(mail),
          created_at: now,
          send_after: now,
        })
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
