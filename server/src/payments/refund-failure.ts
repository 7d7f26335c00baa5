import { centsToDollars } from '@doctors-portal/contract';
import type { FastifyBaseLogger } from 'fastify';
import { bookingSubject, recordAudit, systemActor } from '../audit/log.js';
import { bookingSummary } from '../bookings/presenters.js';
import { findBooking } from '../bookings/repository.js';
import type { Payments } from './service.js';

/** A refund the provider reports failed, by its id ('re_…'), with the provider's reason. */
export interface FailedRefund {
  id: string;
  failureReason: string;
}

/**
 * A refund the provider accepted can fail days later (Stripe's `refund.failed`: the card was
 * closed, the bank sent the money back). The money is then not with the patient, whom the
 * cancellation mail told it was. The refund is marked failed, so that the booking no longer
 * shows it, and, in the same transaction, audited and mailed to the clinic, which returns the
 * money another way. Only the first report of a refund does this; one for a refund the portal
 * did not make (a refund from the provider's dashboard) is logged and changes nothing.
 */
export async function recordRefundFailure(
  payments: Payments,
  log: FastifyBaseLogger,
  refund: FailedRefund,
  clinicEmail: string,
): Promise<void> {
  const at = new Date();
  const failed = await payments.db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('refund')
      .set({ failed_at: at.toISOString(), failure_reason: refund.failureReason })
      .where('id', '=', refund.id)
      .where('failed_at', 'is', null)
      .returning(['booking_id', 'intent_id', 'amount_cents', 'currency'])
      .executeTakeFirst();
    if (!row) return null;
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
    if (booking) {
      await payments.mail.add(tx, {
        kind: 'refund-failed',
        to: clinicEmail,
        booking: bookingSummary(booking),
        patientEmail: booking.patient_email,
        refund: { id: refund.id, amountDollars: centsToDollars(row.amount_cents) },
        failureReason: refund.failureReason,
      });
    }
    return { bookingId: row.booking_id, transactionId: row.intent_id };
  });
  if (!failed) {
    log.info({ refundId: refund.id }, 'a refund not on record, or known to have failed, failed');
    return;
  }
  payments.mail.wake();
  log.error(
    { refundId: refund.id, ...failed, failureReason: refund.failureReason },
    'a refund failed: the clinic was mailed to return the money another way',
  );
}
