import type { FastifyInstance } from 'fastify';
import type { Booking } from '../src/db/schema.js';
import { bearer } from './accounts.js';
import { type Person, photoPng, signedUp, signedUpAdmin, uploadImage } from './admin-fixtures.js';
import { buildTestApp, type TestApp } from './helper.js';
import { intentIdOf, unpaidBooking } from './payment-fixtures.js';
import { type RegisteredRoute, withRouteList } from './routes.js';

/** The four callers every route is tried as. */
export const ROLES = ['anon', 'A', 'B', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * A portal with real data in it, as the authorisation matrix and the fuzzer use it: patients
 * A and B with bookings of their own (one of A's paid through the demo gateway, another with a
 * payment intent still open), an administrator, an uploaded photo and a doctor.
 */
export interface SecurityFixtures {
  t: TestApp;
  /** Every route the app registered, as the server declared them. */
  routes: RegisteredRoute[];
  people: { A: Person; B: Person; admin: Person };
  a: {
    phone: string;
    /** Unpaid, with an open demo payment intent. */
    unpaid: Booking;
    intentId: string;
    clientSecret: string;
    /** Paid through the demo gateway. */
    paid: Booking;
    transactionId: string;
  };
  b: { phone: string; booking: Booking };
  image: { url: string; path: string };
  doctor: { email: string; id: string };
}

export const A_PHONE = '+1 555 730 4411';
export const B_PHONE = '+1 555 860 9922';
/** A test card that the demo gateway declines: paying with it changes nothing. */
export const DECLINED_CARD = {
  number: '4000000000000002',
  expMonth: 12,
  expYear: 2040,
  cvc: '123',
  postalCode: '10001',
};
export const GOOD_CARD = { ...DECLINED_CARD, number: '4242424242424242' };

export async function uploadPhoto(t: TestApp, admin: Person): Promise<string> {
  const response = await uploadImage(t.app, admin.token, {
    filename: 'doctor.png',
    contentType: 'image/png',
    data: await photoPng(64, 64),
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.body}`);
  return (response.json() as { data: { url: string } }).data.url;
}

let doctorCounter = 0;
export async function addDoctor(t: TestApp, admin: Person, image?: string): Promise<string> {
  doctorCounter += 1;
  const email = `dr${doctorCounter}x${Date.now()}@clinic.com`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/doctor',
    headers: bearer(admin.token),
    payload: {
      name: `Dr Molar ${doctorCounter}`,
      email,
      specialty: 'Teeth Cleaning',
      image: image ?? (await uploadPhoto(t, admin)),
    },
  });
  if (response.statusCode !== 201) throw new Error(`add doctor failed: ${response.body}`);
  return email;
}

/** The patient pays an intent with a good card at the demo gateway, as the payment page does. */
export function payByCard(
  app: FastifyInstance,
  patient: { token: string; name: string; email: string },
  clientSecret: string,
) {
  return app.inject({
    method: 'POST',
    url: '/api/demo-gateway/confirm',
    headers: bearer(patient.token),
    payload: {
      clientSecret,
      card: GOOD_CARD,
      billingDetails: { name: patient.name, email: patient.email },
    },
  });
}

/** Pays a booking through the demo gateway as its patient would; answers the transaction id. */
export async function payThroughDemo(t: TestApp, patient: Person, booking: Booking) {
  const intent = await t.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: bearer(patient.token),
    payload: { bookingId: booking.id },
  });
  const { clientSecret } = intent.json() as { clientSecret: string };
  const paid = await payByCard(t.app, patient, clientSecret);
  const transactionId = (paid.json() as { paymentIntent: { id: string } }).paymentIntent.id;
  const confirmed = await t.app.inject({
    method: 'PATCH',
    url: `/api/booking/${booking.id}`,
    headers: bearer(patient.token),
    payload: { appointmentId: booking.id, transactionId },
  });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return transactionId;
}

export async function buildSecurityFixtures(
  env: Record<string, string> = {},
): Promise<SecurityFixtures> {
  const { built: t, routes } = await withRouteList(() => buildTestApp({ env }));
  const A = await signedUp(t.app, 'Alice Enamel');
  const B = await signedUp(t.app, 'Bob Molar');
  const admin = await signedUpAdmin(t.app, 'Clinic Admin');
  const people = { A, B, admin };

  const paid = await unpaidBooking(t, A, { phone: A_PHONE });
  const unpaid = await unpaidBooking(t, A, { phone: A_PHONE });
  const bBooking = await unpaidBooking(t, B, { phone: B_PHONE });
  const image = await uploadPhoto(t, admin);
  const doctor = await addDoctor(t, admin, image);

  let a: SecurityFixtures['a'] = {
    phone: A_PHONE,
    unpaid,
    paid,
    intentId: '',
    clientSecret: '',
    transactionId: '',
  };
  if (t.config.payments.provider === 'demo') {
    const transactionId = await payThroughDemo(t, A, paid);
    const intent = await t.app.inject({
      method: 'POST',
      url: '/api/create-payment-intent',
      headers: bearer(A.token),
      payload: { bookingId: unpaid.id },
    });
    const { clientSecret } = intent.json() as { clientSecret: string };
    a = { ...a, transactionId, clientSecret, intentId: intentIdOf(clientSecret) };
  }
  return {
    t,
    routes,
    people,
    a,
    b: { phone: B_PHONE, booking: bBooking },
    image: { url: image, path: new URL(image, t.config.publicUrl).pathname },
    doctor: {
      email: doctor,
      id: (
        await t.db
          .selectFrom('doctor')
          .select('id')
          .where('email', '=', doctor)
          .executeTakeFirstOrThrow()
      ).id,
    },
  };
}

/** What of A's must never reach anyone but A and the clinic's administrators. */
export function secretsOfA(f: SecurityFixtures): Record<string, string> {
  return Object.fromEntries(
    Object.entries({
      'A’s email': f.people.A.email,
      'A’s phone': f.a.phone,
      'A’s unpaid booking id': f.a.unpaid.id,
      'A’s paid booking id': f.a.paid.id,
      'A’s transaction id': f.a.transactionId,
      'A’s payment intent': f.a.intentId,
      'A’s client secret': f.a.clientSecret,
      'A’s access token': f.people.A.token,
    }).filter(([, value]) => value !== ''),
  );
}
