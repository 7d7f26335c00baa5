import { centsToDollars } from '@doctors-portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { bookingSubject, recordAudit, systemActor } from '../audit/log.js';
import { bookingSummary } from '../bookings/presenters.js';
import { findBooking } from '../bookings/repository.js';
import { intentKnown } from './repository.js';
import type { Payments } from './service.js';

/** A refund the provider reports failed: its id ('re_…'), its payment, the provider's reason. */
export interface FailedRefund {
  id: string;
  intentId: string | null;
  failureReason: string;
}

/** What the webhook answers a failure reported before its refund's record (503). */
export const notYetRecorded =
  'This refund is not on record yet (its record is being written): send the event again.';

/**
 * A refund the provider accepted can fail days later (Stripe's `refund.failed`: the card was
 * closed, the bank sent the money back). The money is then still with the clinic. The refund is
 * marked failed, so that its booking no longer shows it, and, in the same transaction, audited
 * and mailed to the clinic, which returns the money another way where it should go back. Only
 * the first report of a refund does this.
 *
 * A report can come before the refund's record: the portal asks for a refund first and writes
 * its row after. For a payment the portal knows, the answer is 'later' (the webhook answers 503,
 * and the provider sends it again); a refund of a payment it never took (one from the
 * provider's dashboard of a charge made elsewhere) is logged and changes nothing.
 */
export async function recordRefundFailure(
  payments: Payments,
  log: FastifyBaseLogger,
  refund: FailedRefund,
  clinicEmail: string,
): Promise<'done' | 'later'> {
  const at = new Date();
  const failed = await payments.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('refund')
      .set({ failed_at: at.toISOString(), failure_reason: refund.failureReason })
      .where('id', '=', refund.id)
      .where('failed_at', 'is', null)
      .returning(['booking_id', 'intent_id', 'amount_cents', 'currency', 'reason'])
      .executeTakeFirst();
    if (!row) return null;
    // An orphaned charge's refund names the booking its charge named, if any ('' for none).
    const booking = row.booking_id ? await findBooking(tx, row.booking_id) : undefined;
    await recordAudit(tx, {
      actor: systemActor('stripe-webhook'),
      action: 'booking.refund_failed',
      subject: booking ? bookingSubject(booking) : { type: 'payment', id: row.intent_id },
      after: {
        refundId: refund.id,
        transactionId: row.intent_id,
        amountCents: row.amount_cents,
        currency: row.currency,
        failureReason: refund.failureReason,
      },
      at,
    });
    await payments.mail.add(tx, {
      kind: 'refund-failed',
      to: clinicEmail,
      refund: {
        id: refund.id,
        amountDollars: centsToDollars(row.amount_cents),
        transactionId: row.intent_id,
        reason: row.reason,
      },
      failureReason: refund.failureReason,
      ...(booking
        ? {
            booking: {
              ...bookingSummary(booking),
              status: booking.status,
              patientEmail: booking.patient_email,
              // Its cancellation's mail said so: the refund of the payment that paid it.
              toldRefunded:
                booking.status === 'cancelled' && booking.transaction_id === row.intent_id,
            },
          }
        : {}),
    });
    return { bookingId: row.booking_id || null, transactionId: row.intent_id };
  });
  if (failed) {
    payments.mail.wake();
    log.error(
      { refundId: refund.id, ...failed, failureReason: refund.failureReason },
      'a refund failed: the clinic was mailed to return the money another way',
    );
    return 'done';
  }
  const recorded = await payments.db
    .selectFrom('refund')
    .select('id')
    .where('id', '=', refund.id)
    .executeTakeFirst();
  if (!recorded && refund.intentId && (await intentKnown(payments.db, refund.intentId))) {
    log.warn({ refundId: refund.id, transactionId: refund.intentId }, notYetRecorded);
    return 'later';
  }
  log.info(
    { refundId: refund.id, transactionId: refund.intentId },
    recorded ? 'a refund known to have failed was reported again' : 'a refund not on record failed',
  );
  return 'done';
}
