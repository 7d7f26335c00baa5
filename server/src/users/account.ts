import type { HistoryEntry, HistoryStatus, IsoDate } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { bookingCancelled, patientActor, recordAudit, userSubject } from '../audit/log.js';
import { auditEntriesBy } from '../audit/repository.js';
import type { CurrentUser } from '../auth/current-user.js';
import type { PaymentRelease } from '../bookings/booking-rules.js';
import { type ClinicMoment, hasStarted } from '../bookings/clock.js';
import type { BookingEvents } from '../bookings/events.js';
import { bookingDoctor } from '../bookings/presenters.js';
import {
  anonymisePatientBookings,
  cancelUnpaidBooking,
  listAllPatientBookings,
  listPatientHistory,
  upcomingUnpaidBookingsOf,
} from '../bookings/repository.js';
import { contactMessagesFrom } from '../contact/repository.js';
import type { Booking, Database } from '../db/schema.js';
import { paymentsOfBookings, refundsOfBookings } from '../payments/repository.js';
import { allEntriesOf } from '../waitlist/repository.js';
import { deleteVerifications } from './repository.js';

/** What a removed patient's bookings keep in place of their name and phone. */
export const FORMER_PATIENT = { name: 'Former patient', phone: '' } as const;

function historyStatus(booking: Booking, patientId: string): HistoryStatus {
  if (booking.status === 'cancelled') {
    return booking.cancelled_by === patientId ? 'cancelled_by_patient' : 'cancelled_by_clinic';
  }
  if (booking.status === 'completed' || booking.status === 'no_show') return booking.status;
  return 'past';
}

/** The caller's past and cancelled visits, the latest first. */
export async function patientHistory(
  db: Kysely<Database>,
  patientId: string,
  today: IsoDate,
): Promise<HistoryEntry[]> {
  const rows = await listPatientHistory(db, patientId, today);
  return rows.map((row) => ({
    _id: row.id,
    date: row.date,
    slot: row.slot,
    treatment: row.treatment_name,
    doctor: bookingDoctor(row),
    status: historyStatus(row, patientId),
    price: row.price_cents / 100,
    paid: row.paid_at !== null,
    refunded: row.refunded,
  }));
}

const row = z.record(z.string(), z.unknown());
/** `GET /api/account/export`: everything the portal holds about the caller, without secrets. */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    age: z.number().nullable(),
    emailVerified: z.boolean(),
    image: z.string().nullable(),
    role: z.string().nullable(),
    createdAt: z.string(),
    signInMethods: z.array(z.string()),
  }),
  bookings: z.array(row),
  payments: z.array(row),
  refunds: z.array(row),
  contactMessages: z.array(row),
  waitlist: z.array(row),
  auditEntries: z.array(row),
});

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * The caller's data: profile, bookings (cancelled too), payments, refunds, messages, waitlist
 * entries, audit.
 */
export async function accountExport(db: Kysely<Database>, userId: string) {
  const user = await db
    .selectFrom('user')
    .select(['id', 'name', 'email', 'phone', 'age', 'emailVerified', 'image', 'role', 'createdAt'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const methods = await db
    .selectFrom('account')
    .select('providerId')
    .where('userId', '=', userId)
    .execute();
  const bookings = await listAllPatientBookings(db, userId);
  const ids = bookings.map((booking) => booking.id);
  const [payments, refunds, contactMessages, waitlist, auditEntries] = await Promise.all([
    paymentsOfBookings(db, ids),
    refundsOfBookings(db, ids),
    // Messages are matched by address: only an account that proved it owns the address gets them.
    user.emailVerified ? contactMessagesFrom(db, user.email, iso(user.createdAt)) : [],
    allEntriesOf(db, userId),
    auditEntriesBy(db, userId),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      phone: user.phone,
      age: user.age,
      emailVerified: Boolean(user.emailVerified),
      image: user.image,
      role: user.role,
      createdAt: iso(user.createdAt),
      signInMethods: methods.map((method) => method.providerId),
    },
    bookings: bookings.map((booking) => ({
      id: booking.id,
      treatment: booking.treatment_name,
      date: booking.date,
      slot: booking.slot,
      doctor: bookingDoctor(booking),
      patientName: booking.patient_name,
      patientEmail: booking.patient_email,
      phone: booking.phone,
      age: booking.age,
      priceCents: booking.price_cents,
      status: booking.status,
      createdAt: booking.created_at,
      paidAt: booking.paid_at,
      cancelledAt: booking.cancelled_at,
      cancelReason: booking.cancel_reason,
    })),
    payments: payments.map((payment) => ({
      bookingId: payment.booking_id,
      provider: payment.provider,
      transactionId: payment.transaction_id,
      amountCents: payment.amount_cents,
      currency: payment.currency,
      at: payment.created_at,
    })),
    refunds: refunds.map((refund) => ({
      bookingId: refund.booking_id,
      provider: refund.provider,
      amountCents: refund.amount_cents,
      currency: refund.currency,
      reason: refund.reason,
      at: refund.created_at,
      failedAt: refund.failed_at,
      failureReason: refund.failure_reason,
    })),
    contactMessages: contactMessages.map((message) => ({
      subject: message.subject,
      message: message.message,
      sentAt: message.created_at,
      readAt: message.read_at,
    })),
    waitlist: waitlist.map((entry) => ({
      treatment: entry.treatment,
      date: entry.date,
      joinedAt: entry.created_at,
    })),
    auditEntries: auditEntries.map((entry) => ({
      at: entry.at,
      action: entry.action,
      subject: { type: entry.subject_type, id: entry.subject_id, label: entry.subject_label },
      before: entry.before === null ? null : JSON.parse(entry.before),
      after: entry.after === null ? null : JSON.parse(entry.after),
    })),
  };
}

/** The hash of the account's password, or null when it signs in with Google only. */
export async function passwordHashOf(db: Kysely<Database>, userId: string): Promise<string | null> {
  const account = await db
    .withTables<{ account: { userId: string; providerId: string; password: string | null } }>()
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', 'credential')
    .executeTakeFirst();
  return account?.password ?? null;
}

/**
 * Removes the caller's own account at `moment`: their unpaid bookings yet to begin are cancelled
 * (their slots free again, each audited as the patient's cancellation; a visit already under way
 * or over today stays on the records, as a cancellation of it would be refused), a payment under way stopped first
 * (`releasePayment`, as the patient's own cancellation does); the rest stay on the clinic's
 * records with the name and phone replaced and no account (decision 013), their reminders
 * withdrawn (`events`' 'patient-left'). The account, its sessions and sign-in methods are
 * deleted, and `user.removed` is audited with the patient as actor.
 */
export async function removeOwnAccount(
  db: Kysely<Database>,
  caller: CurrentUser,
  moment: ClinicMoment,
  releasePayment: (booking: Booking) => Promise<PaymentRelease>,
  events: BookingEvents,
): Promise<{ cancelled: number; kept: number }> {
  const actor = patientActor(caller);
  const reason = 'Cancelled by the patient: account removed';
  let cancelled = 0;
  const upcoming = await upcomingUnpaidBookingsOf(db, caller.id, moment.today);
  for (const booking of upcoming.filter((row) => !hasStarted(row.date, row.slot, moment))) {
    // A card payment the patient had started is stopped first; one that went through (or is
    // still being decided) keeps its booking, which then stays on the records like a paid one.
    if ((await releasePayment(booking)) !== 'released') continue;
    const at = new Date();
    const done = await cancelUnpaidBooking(
      db,
      booking.id,
      { by: caller.id, reason, at },
      bookingCancelled(actor, booking, reason, at),
      (tx, row) => events.emit(tx, { kind: 'cancelled', booking: row }),
    );
    if (done) cancelled += 1;
  }
  return db.transaction().execute(async (tx) => {
    const kept = await anonymisePatientBookings(tx, caller.id, FORMER_PATIENT);
    // Their reminders go with the account: nothing is mailed to a patient who left.
    for (const booking of kept) await events.emit(tx, { kind: 'patient-left', booking });
    // Its sessions and sign-in methods go with it (foreign keys cascade).
    await tx.deleteFrom('user').where('id', '=', caller.id).execute();
    await deleteVerifications(tx, caller.id);
    await recordAudit(tx, {
      actor,
      action: 'user.removed',
      subject: userSubject(caller),
      before: { name: caller.name, email: caller.email, role: null },
      after: { bookingsCancelled: cancelled, bookingsKept: kept.length },
    });
    return { cancelled, kept: kept.length };
  });
}
