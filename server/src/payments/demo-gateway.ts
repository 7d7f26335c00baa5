import { randomInt } from 'node:crypto';
import type { DemoConfirmResult, demoCardSchema } from '@doctors-portal/contract';
import type { Kysely, Selectable } from 'kysely';
import type { z } from 'zod';
import type { CurrentUser } from '../auth/current-user.js';
import { isOwnBooking } from '../bookings/booking-rules.js';
import { findBooking } from '../bookings/repository.js';
import type { Database, DemoPaymentIntentTable } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { paymentErrors } from './errors.js';
import type { PaymentProvider, ProviderIntent } from './provider.js';
import { PaymentProviderError, RefundRefused } from './provider.js';

export type DemoCard = z.infer<typeof demoCardSchema>;

/**
 * What the demo gateway answers a card, word for word as Stripe's card element and Stripe's test
 * mode do: the same test cards, the same codes, the same English messages.
 */
export interface CardError {
  type: 'card_error';
  code: string;
  /** For declines: the issuer's reason, e.g. 'insufficient_funds'. */
  declineCode?: string;
  message: string;
}

const declined = (declineCode: string, message = 'Your card was declined.'): CardError => ({
  type: 'card_error',
  code: 'card_declined',
  declineCode,
  message,
});
const cardError = (code: string, message: string): CardError => ({
  type: 'card_error',
  code,
  message,
});

/** Stripe's test cards that fail at the bank, by number (https://docs.stripe.com/testing). */
const FAILING_TEST_CARDS: Record<string, CardError> = {
  '4000000000000002': declined('generic_decline'),
  '4000000000009995': declined('insufficient_funds', 'Your card has insufficient funds.'),
  '4000000000009987': declined('lost_card'),
  '4000000000009979': declined('stolen_card'),
  '4000000000000069': cardError('expired_card', 'Your card has expired.'),
  '4000000000000127': cardError('incorrect_cvc', "Your card's security code is incorrect."),
  '4000000000000119': cardError(
    'processing_error',
    'An error occurred while processing your card. Try again in a little bit.',
  ),
};

/** Stripe's test cards that succeed: one or more of each brand. */
const SUCCEEDING_TEST_CARDS = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '36227206271667',
  '3566002020360505',
  '6200000000000005',
]);

/** Any other well-formed number is a real card, which test mode refuses, as here. */
const NOT_A_TEST_CARD = declined(
  'live_mode_test_card',
  'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
);

const MESSAGES = {
  incompleteNumber: cardError('incomplete_number', 'Your card number is incomplete.'),
  incorrectNumber: cardError('incorrect_number', 'Your card number is incorrect.'),
  invalidMonth: cardError('invalid_expiry_month', "Your card's expiration month is invalid."),
  invalidYear: cardError('invalid_expiry_year', "Your card's expiration year is invalid."),
  yearPast: cardError('invalid_expiry_year_past', "Your card's expiration year is in the past."),
  monthPast: cardError('invalid_expiry_month_past', "Your card's expiration date is in the past."),
  incompleteCvc: cardError('incomplete_cvc', "Your card's security code is incomplete."),
  invalidCvc: cardError('invalid_cvc', "Your card's security code is invalid."),
  incompleteZip: cardError('incomplete_zip', 'Your postal code is incomplete.'),
} as const;

/** Card number lengths and security code length by brand, from the number's first digits. */
function brandOf(digits: string): { lengths: number[]; cvc: number } {
  if (/^3[47]/.test(digits)) return { lengths: [15], cvc: 4 }; // American Express
  if (/^3(0[0-5]|[689])/.test(digits)) return { lengths: [14, 16], cvc: 3 }; // Diners Club
  if (/^62/.test(digits)) return { lengths: [16, 17, 18, 19], cvc: 3 }; // UnionPay
  return { lengths: [16], cvc: 3 }; // Visa, Mastercard, Discover, JCB
}

/** The Luhn checksum every card number carries in its last digit. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * The outcome of paying with a card, checked in the order the card element shows its errors
 * (number, expiry, security code, postal code), then as the test-mode bank would answer.
 * `now` decides which expiry dates are past: a card is valid to the end of its month.
 */
export function cardOutcome(card: DemoCard, now: Date): CardError | null {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d*$/.test(digits)) return MESSAGES.incorrectNumber;
  const brand = brandOf(digits);
  const longest = Math.max(...brand.lengths);
  if (!brand.lengths.includes(digits.length)) {
    return digits.length < longest ? MESSAGES.incompleteNumber : MESSAGES.incorrectNumber;
  }
  if (!passesLuhn(digits)) return MESSAGES.incorrectNumber;

  if (card.expMonth < 1 || card.expMonth > 12) return MESSAGES.invalidMonth;
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisYear = now.getUTCFullYear();
  if (year < thisYear) return MESSAGES.yearPast;
  if (year === thisYear && card.expMonth < now.getUTCMonth() + 1) return MESSAGES.monthPast;
  if (year > thisYear + 50) return MESSAGES.invalidYear;

  if (!/^\d*$/.test(card.cvc) || card.cvc.length > brand.cvc) return MESSAGES.invalidCvc;
  if (card.cvc.length < brand.cvc) return MESSAGES.incompleteCvc;
  if (card.postalCode.trim() === '') return MESSAGES.incompleteZip;

  const failure = FAILING_TEST_CARDS[digits];
  if (failure) return failure;
  return SUCCEEDING_TEST_CARDS.has(digits) ? null : NOT_A_TEST_CARD;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function randomToken(length: number): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

function toProviderIntent(row: DemoPaymentIntentRow): ProviderIntent {
  return {
    id: row.id,
    status: row.canceled_at ? 'canceled' : row.status,
    amountCents: row.amount_cents,
    currency: row.currency,
    bookingId: row.booking_id,
    clientSecret: row.client_secret,
  };
}

type DemoPaymentIntentRow = Pick<
  Selectable<DemoPaymentIntentTable>,
  'id' | 'booking_id' | 'amount_cents' | 'currency' | 'status' | 'client_secret' | 'canceled_at'
>;

const INTENT_COLUMNS = [
  'id',
  'booking_id',
  'amount_cents',
  'currency',
  'status',
  'client_secret',
  'canceled_at',
] as const;

/**
 * The offline gateway: intents live in our own database, cards are judged by Stripe's test-mode
 * rules, and no money moves. One intent per booking, so creating twice answers the same one; a
 * cancelled one is replaced by a new one. Refunds are recorded, one per intent.
 */
export function demoGateway(db: Kysely<Database>): PaymentProvider {
  const byBooking = (bookingId: string) =>
    db
      .selectFrom('demo_payment_intent')
      .select(INTENT_COLUMNS)
      .where('booking_id', '=', bookingId)
      .executeTakeFirst();

  return {
    name: 'demo',
    async createIntent({ bookingId, amountCents, currency, receiptEmail }) {
      let row = await byBooking(bookingId);
      if (row?.canceled_at) {
        await db.deleteFrom('demo_payment_intent').where('id', '=', row.id).execute();
        row = undefined;
      }
      if (!row) {
        const id = `pi_demo_${randomToken(24)}`;
        const now = new Date().toISOString();
        await db
          .insertInto('demo_payment_intent')
          .values({
            id,
            booking_id: bookingId,
            amount_cents: amountCents,
            currency,
            status: 'requires_payment_method',
            client_secret: `${id}_secret_${randomToken(24)}`,
            receipt_email: receiptEmail,
            created_at: now,
            updated_at: now,
          })
          // Created meanwhile by a concurrent request for the same booking: that one stands.
          .onConflict((conflict) => conflict.column('booking_id').doNothing())
          .execute();
        row = await byBooking(bookingId);
      }
      if (!row) throw new PaymentProviderError(`demo intent for booking ${bookingId} vanished`);
      if (row.amount_cents !== amountCents || row.currency !== currency) {
        throw new PaymentProviderError(
          `demo intent ${row.id} is for ${row.amount_cents} ${row.currency}, not ${amountCents} ${currency}`,
        );
      }
      return toProviderIntent(row);
    },
    async retrieve(intentId) {
      const row = await db
        .selectFrom('demo_payment_intent')
        .select(INTENT_COLUMNS)
        .where('id', '=', intentId)
        .executeTakeFirst();
      return row ? toProviderIntent(row) : null;
    },
    async cancel(intentId) {
      await db
        .updateTable('demo_payment_intent')
        .set({ canceled_at: new Date().toISOString() })
        .where('id', '=', intentId)
        // A card payment that got there first is not undone.
        .where('status', '=', 'requires_payment_method')
        .executeTakeFirst();
      return this.retrieve(intentId);
    },
    async refund(intent) {
      const current = await this.retrieve(intent.id);
      if (current?.status !== 'succeeded') {
        throw new RefundRefused(
          `The payment ${intent.id} has not succeeded, so there is nothing to refund.`,
        );
      }
      await db
        .insertInto('demo_refund')
        .values({
          id: `re_demo_${randomToken(24)}`,
          intent_id: intent.id,
          amount_cents: current.amountCents,
          created_at: new Date().toISOString(),
        })
        // Refunded already (a repeated or concurrent call): that refund stands.
        .onConflict((conflict) => conflict.column('intent_id').doNothing())
        .execute();
      const refund = await db
        .selectFrom('demo_refund')
        .select(['id', 'amount_cents'])
        .where('intent_id', '=', intent.id)
        .executeTakeFirstOrThrow();
      return { id: refund.id, amountCents: refund.amount_cents, currency: current.currency };
    },
  };
}

export const demoErrors = {
  noSuchPayment: 'There is no such payment. Reload the page to start again.',
} as const;

/**
 * `POST /api/demo-gateway/confirm`: pays a demo intent with a card, as Stripe.js's
 * confirmCardPayment would. Every attempt is recorded on the intent (its outcome and the card's
 * last four digits, never the number or the security code). Card errors are answers, not
 * failures; confirming an intent that has already succeeded changes nothing and says so.
 */
export async function confirmDemoPayment(
  db: Kysely<Database>,
  caller: CurrentUser,
  request: { clientSecret: string; card: DemoCard },
  now: Date = new Date(),
): Promise<DemoConfirmResult> {
  const intent = await db
    .selectFrom('demo_payment_intent')
    .select(['id', 'booking_id', 'status', 'canceled_at'])
    .where('client_secret', '=', request.clientSecret)
    .executeTakeFirst();
  if (!intent) throw new HttpError(404, demoErrors.noSuchPayment);
  const booking = await findBooking(db, intent.booking_id);
  if (!booking) throw new HttpError(404, paymentErrors.noSuchBooking);
  if (!isOwnBooking(caller, booking)) throw new HttpError(403, paymentErrors.notYourBookingToPay);
  const succeeded = { paymentIntent: { id: intent.id, status: 'succeeded' as const } };
  if (intent.status === 'succeeded') return succeeded;
  if (!caller.emailVerified) throw new HttpError(403, paymentErrors.unverified);
  if (booking.paid_at !== null) throw new HttpError(409, paymentErrors.alreadyPaid);
  if (booking.status === 'cancelled' || intent.canceled_at) {
    throw new HttpError(409, paymentErrors.bookingCancelled);
  }

  const outcome = cardOutcome(request.card, now);
  const digits = request.card.number.replace(/\D/g, '');
  const updated = await db
    .updateTable('demo_payment_intent')
    .set((eb) => ({
      status: outcome ? 'requires_payment_method' : 'succeeded',
      attempts: eb('attempts', '+', 1),
      last4: digits.length >= 4 ? digits.slice(-4) : null,
      last_error_code: outcome ? (outcome.declineCode ?? outcome.code) : null,
      updated_at: now.toISOString(),
    }))
    .where('id', '=', intent.id)
    // A concurrent attempt that succeeded first is not undone by this one, and an intent
    // cancelled meanwhile (its booking was) cannot be paid.
    .where('status', '=', 'requires_payment_method')
    .where('canceled_at', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    const now = await db
      .selectFrom('demo_payment_intent')
      .select('status')
      .where('id', '=', intent.id)
      .executeTakeFirst();
    if (now?.status === 'succeeded') return succeeded;
    throw new HttpError(409, paymentErrors.bookingCancelled);
  }
  if (!outcome) return succeeded;
  return { error: { type: outcome.type, code: outcome.code, message: outcome.message } };
}
