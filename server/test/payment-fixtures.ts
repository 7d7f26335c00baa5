import type { IsoDate } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { newBookingRow } from '../src/bookings/repository.js';
import type { Booking } from '../src/db/schema.js';
import { accessToken, bearer, signUp } from './accounts.js';
import { clinicDay } from './dates.js';
import type { TestApp } from './helper.js';
import type { ReceivedMail } from './smtp-server.js';
import type { StripeStandIn } from './stripe-stand-in.js';

/** A signed-in patient, as the payment tests use one. */
export interface Patient {
  id: string;
  email: string;
  name: string;
  token: string;
}

export async function signedUpPatient(app: FastifyInstance, name: string): Promise<Patient> {
  const account = await signUp(app, { name });
  return { id: account.id, email: account.email, name, token: await accessToken(app, account) };
}

/** A signed-in administrator of the clinic. */
export async function signedUpAdmin(t: TestApp, name = 'Clinic Admin'): Promise<Patient> {
  const admin = await signedUpPatient(t.app, name);
  await t.db.updateTable('user').set({ role: 'admin' }).where('email', '=', admin.email).execute();
  return admin;
}

/**
 * The last day `unpaidBooking` used, per app: each test file's app starts from day 1, whatever
 * other files its worker ran before (the worker keeps this module loaded between files), so the
 * days a file's other bookings use stay free.
 */
const lastDay = new WeakMap<TestApp, number>();

/**
 * An unpaid booking of the patient's, written straight into the booking table (booking through
 * the API has its own tests): Teeth Cleaning at $80 unless told otherwise, each on a day of its
 * own so that no two collide.
 */
export async function unpaidBooking(
  t: TestApp,
  patient: Patient,
  fields: Partial<Booking> = {},
): Promise<Booking> {
  const day = (lastDay.get(t) ?? 0) + 1;
  lastDay.set(t, day);
  const booking: Booking = {
    ...newBookingRow({
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: clinicDay(day),
      slot: '10:00 AM - 10:30 AM',
      patient_id: patient.id,
      patient_email: patient.email,
      patient_name: patient.name,
      phone: '+1 555 010 2030',
      age: 34,
    }),
    ...fields,
  };
  await t.db.insertInto('booking').values(booking).execute();
  return booking;
}

export async function bookingRow(t: TestApp, id: string) {
  return t.db.selectFrom('booking').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function paymentRows(t: TestApp, bookingId: string) {
  return t.db.selectFrom('payment').selectAll().where('booking_id', '=', bookingId).execute();
}

/** The payment page's calls, as the web app makes them. */
export function paymentCalls(app: FastifyInstance) {
  return {
    createIntent: (patient: Patient, body: Record<string, unknown>) =>
      app.inject({
        method: 'POST',
        url: '/api/create-payment-intent',
        headers: bearer(patient.token),
        payload: body,
      }),
    readBooking: (patient: Patient, id: string) =>
      app.inject({ method: 'GET', url: `/api/booking/${id}`, headers: bearer(patient.token) }),
    confirm: (patient: Patient, id: string, transactionId: string, appointmentId = id) =>
      app.inject({
        method: 'PATCH',
        url: `/api/booking/${id}`,
        headers: bearer(patient.token),
        payload: { appointmentId, transactionId },
      }),
  };
}

/** The intent id inside a client secret: 'pi_…_secret_…' → 'pi_…'. */
export function intentIdOf(clientSecret: string): string {
  return clientSecret.slice(0, clientSecret.indexOf('_secret_'));
}

/** Whether a mail is the payment receipt of this transaction (receipts go out unawaited). */
export function isReceiptFor(transactionId: string) {
  return (mail: ReceivedMail) =>
    (mail.subject?.startsWith('Payment received') ?? false) &&
    (mail.text ?? '').includes(transactionId);
}

/** What sends a test app's payments to the Stripe stand-in (`name` keeps its keys apart). */
export const stripeStandInEnv = (stripeApi: StripeStandIn, name: string) => ({
  STRIPE_SECRET_KEY: stripeApi.secretKey,
  STRIPE_PUBLISHABLE_KEY: `pk_test_${name}`,
  STRIPE_WEBHOOK_SECRET: `whsec_${name}`,
  STRIPE_API_BASE: stripeApi.url,
});

/** A booking of the patient's on `date` that the Stripe stand-in charged and the portal marked paid. */
export async function paidThroughStripe(
  t: TestApp,
  stripeApi: StripeStandIn,
  patient: Patient,
  date: IsoDate,
): Promise<{ booking: Booking; intentId: string }> {
  const booking = await unpaidBooking(t, patient, { date });
  const calls = paymentCalls(t.app);
  const intent = await calls.createIntent(patient, { bookingId: booking.id });
  const intentId = intentIdOf(intent.json().clientSecret);
  stripeApi.succeed(intentId);
  const confirmed = await calls.confirm(patient, booking.id, intentId);
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return { booking, intentId };
}

/** Text a name or a reason may hold that JSON and HTML must escape: quotes, controls, emoji. */
export const ODD_TEXT =
  'Zoë "Q" \\ O\'Brien\t\n\r\u0001\u001f\u007f é 中文 😀 \u2028\u2029 </script>';
