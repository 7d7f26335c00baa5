import { randomUUID } from 'node:crypto';
import { formatMediumDate } from '@doctors-portal/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBooking, newBookingRow } from '../src/bookings/repository.js';
import { insertContactMessage } from '../src/contact/repository.js';
import { forgetCachedTreatments } from '../src/treatments/repository.js';
import { setAdmin } from '../src/users/repository.js';
import { visitLinkSignerOf, visitStart } from '../src/visits/mail-links.js';
import { insertEntry } from '../src/waitlist/repository.js';
import { accessToken, authRequest, bearer, signUp } from './accounts.js';
import { multipartBody, photoPng } from './admin-fixtures.js';
import { clinicDay, mediumDay } from './dates.js';
import { engine } from './helper.js';
import { failedMail } from './mail-fixtures.js';
import { unpaidBooking } from './payment-fixtures.js';
import { apiRoutes, routeKey } from './routes.js';
import {
  A_PHONE,
  addDoctor,
  buildSecurityFixtures,
  DECLINED_CARD,
  ROLES,
  type Role,
  type SecurityFixtures,
  secretsOfA,
  uploadPhoto,
} from './security-fixtures.js';

/**
 * The authorisation matrix: every route the server registers, called as an anonymous visitor,
 * patient A, patient B and an administrator, against real data (A's and B's bookings, a paid
 * and an unpaid one, a payment intent, a doctor, an uploaded photo). Each row names the exact
 * status each caller gets. The route list comes from the server, so a route added without a
 * row here fails the suite.
 */

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_matrix',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_matrix',
  STRIPE_WEBHOOK_SECRET: 'whsec_matrix',
};

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: string | Buffer | Record<string, unknown>;
  headers?: Record<string, string>;
}

interface Row {
  /** The route as the server declares it: 'GET /api/booking/:id'. */
  route: string;
  /** What the row tries, when a route has several. */
  what: string;
  /** The portal configured with Stripe rather than the demo gateway. */
  stripe?: boolean;
  /** How the caller proves who they are: the API's bearer token, or the session cookie. */
  credential?: 'bearer' | 'cookie';
  call(role: Role, f: SecurityFixtures): Call | Promise<Call>;
  expect: Record<Role, number>;
}

const all = (status: number): Record<Role, number> => ({
  anon: status,
  A: status,
  B: status,
  admin: status,
});
const adminOnly = (status: number) => ({ anon: 401, A: 403, B: 403, admin: status });

/** A future date of the spec's medium format, different for each caller. */
const bookingDate = (role: Role) => mediumDay(427 + ROLES.indexOf(role));

let pastDays = 0;
/** A booking of A's on a day before the clinic's today, each on a day of its own. */
function pastBookingOfA(f: SecurityFixtures) {
  pastDays += 1;
  return unpaidBooking(f.t, f.people.A, { date: clinicDay(-pastDays) });
}

/** A patient nobody else uses, for the calls that change or remove an account. */
async function bystander(f: SecurityFixtures) {
  return (await signUp(f.t.app, { name: 'Bystander' })).email;
}

/** A Contact Us message nobody has read yet. */
function contactMessage(f: SecurityFixtures) {
  return insertContactMessage(
    f.t.db,
    { email: 'visitor@mail.com', subject: 'A question', message: 'Hello' },
    new Date(),
  );
}

/** A mail's one-tap link to a fresh upcoming booking of A's: the link is the credential. */
async function visitLinkOfA(f: SecurityFixtures, action: 'confirm' | 'reschedule' | 'cancel') {
  const booking = await unpaidBooking(f.t, f.people.A);
  return visitLinkSignerOf(f.t.config).sign({
    bookingId: booking.id,
    action,
    sequence: booking.sequence,
    expiresAt: visitStart(f.t.config.clinic.timeZone, booking.date, booking.slot),
  });
}

/** A one-slot treatment for the waitlist rows: a day is full once its slot is held. */
const WAITLIST_TREATMENT = 'matrix-waitlist';
let waitlistDays = 0;
/** A date on which the waitlist treatment's one slot is held (by nobody's account), in medium format. */
async function fullWaitlistDay(f: SecurityFixtures): Promise<string> {
  await f.t.db
    .insertInto('treatment')
    .values({
      id: WAITLIST_TREATMENT,
      name: 'Matrix Waitlist',
      price_cents: 0,
      slots: JSON.stringify(['10:00 AM - 10:30 AM']),
      sort_order: 98,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  forgetCachedTreatments(f.t.db);
  waitlistDays += 1;
  const date = clinicDay(640 + waitlistDays);
  const booking = newBookingRow({
    treatment_id: WAITLIST_TREATMENT,
    treatment_name: 'Matrix Waitlist',
    price_cents: 0,
    date,
    slot: '10:00 AM - 10:30 AM',
    patient_id: null,
    patient_email: 'walk-in@mail.com',
    patient_name: 'Walk In',
    phone: A_PHONE,
    age: 40,
  });
  await f.t.db.transaction().execute((tx) => insertBooking(tx, booking));
  return formatMediumDate(date);
}

/** A waitlist entry of A's on a fresh day; its id. */
async function waitlistEntryOfA(f: SecurityFixtures): Promise<string> {
  waitlistDays += 1;
  const id = await insertEntry(f.t.db, {
    patientId: f.people.A.id,
    treatmentId: 'teeth-cleaning',
    date: clinicDay(640 + waitlistDays),
    now: new Date(),
  });
  if (id === null) throw new Error('A is on that waitlist already');
  return id;
}

/** A closure far from every booking, written straight into the table; its id. */
async function matrixClosure(f: SecurityFixtures, role: Role): Promise<string> {
  const id = randomUUID();
  const day = clinicDay(620 + ROLES.indexOf(role));
  await f.t.db
    .insertInto('closure')
    .values({
      id,
      from_date: day,
      to_date: day,
      label: 'Matrix closure to remove',
      created_at: new Date().toISOString(),
      created_by: null,
    })
    .execute();
  return id;
}

/** A new calendar feed of the fixtures' doctor, made by the admin: its URL's path. */
async function calendarFeedPath(f: SecurityFixtures): Promise<string> {
  const response = await f.t.app.inject({
    method: 'POST',
    url: `/api/doctor/${f.doctor.id}/calendar-feed`,
    headers: bearer(f.people.admin.token),
  });
  if (response.statusCode !== 200) throw new Error(`calendar feed failed: ${response.body}`);
  return new URL((response.json() as { url: string }).url).pathname;
}

function webhookEvent(): string {
  return JSON.stringify({
    id: `evt_matrix_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type: 'payment_intent.created',
    data: { object: { id: 'pi_matrix', object: 'payment_intent', metadata: {} } },
  });
}

const rows: Row[] = [
  { route: 'GET /api/health', what: 'health', call: () => get('/api/health'), expect: all(200) },
  { route: 'GET /api/clinic', what: 'clinic', call: () => get('/api/clinic'), expect: all(200) },
  {
    route: 'GET /api/service',
    what: 'services',
    call: () => get('/api/service'),
    expect: all(200),
  },
  {
    route: 'GET /api/payment-config',
    what: 'payment config',
    call: () => get('/api/payment-config'),
    expect: all(200),
  },
  {
    route: 'GET /api/available',
    what: 'free slots of a day that has bookings',
    call: () => get(`/api/available?date=${encodeURIComponent(mediumDay(2))}`),
    expect: all(200),
  },
  {
    route: 'GET /api/available/month',
    what: 'the status of each day of next month (public)',
    call: () => get(`/api/available/month?month=${clinicDay(31).slice(0, 7)}`),
    expect: all(200),
  },
  {
    route: 'GET /uploads/:name',
    what: "a doctor's photo",
    call: (_role, f) => get(f.image.path),
    expect: all(200),
  },
  {
    route: 'PUT /api/user/:email',
    what: "A's access token from the session cookie",
    credential: 'cookie',
    call: (_role, f) => ({
      method: 'PUT',
      url: `/api/user/${f.people.A.email}`,
      payload: { email: f.people.A.email },
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'GET /api/admin/:email',
    what: 'whether A is an admin',
    call: (_role, f) => get(`/api/admin/${f.people.A.email}`),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'POST /api/booking',
    what: 'a booking of a free slot, for oneself',
    call: (role) => ({
      method: 'POST',
      url: '/api/booking',
      payload: {
        treatmentId: 'fluoride-treatment',
        date: bookingDate(role),
        slot: '10:00 AM - 10:30 AM',
        phone: '+1 555 000 1234',
        age: 40,
      },
    }),
    expect: { anon: 401, A: 201, B: 201, admin: 201 },
  },
  {
    route: 'POST /api/booking',
    what: "a booking made out to A's name and email (ignored: the session decides)",
    call: (role, f) => ({
      method: 'POST',
      url: '/api/booking',
      payload: {
        treatmentId: 'cavity-filling',
        date: bookingDate(role),
        slot: '11:00 AM - 12:00 PM',
        phone: '+1 555 000 1234',
        age: 40,
        patientMail: f.people.A.email,
        patientName: f.people.A.name,
      },
    }),
    expect: { anon: 401, A: 201, B: 201, admin: 201 },
  },
  {
    route: 'GET /api/booking',
    what: "A's bookings",
    call: (_role, f) => get(`/api/booking?patientMail=${encodeURIComponent(f.people.A.email)}`),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'GET /api/booking/:id',
    what: "A's paid booking",
    call: (_role, f) => get(`/api/booking/${f.a.paid.id}`),
    expect: { anon: 401, A: 200, B: 403, admin: 200 },
  },
  {
    route: 'GET /api/booking/:id',
    what: "B's booking",
    call: (_role, f) => get(`/api/booking/${f.b.booking.id}`),
    expect: { anon: 401, A: 403, B: 200, admin: 200 },
  },
  {
    route: 'GET /api/booking/:id/calendar.ics',
    what: "A's paid booking as a calendar event",
    call: (_role, f) => get(`/api/booking/${f.a.paid.id}/calendar.ics`),
    expect: { anon: 401, A: 200, B: 403, admin: 200 },
  },
  {
    route: 'DELETE /api/booking/:id',
    what: 'cancelling an unpaid booking of A’s (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'DELETE',
      url: `/api/booking/${(await unpaidBooking(f.t, f.people.A)).id}`,
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'POST /api/booking/:id/reschedule',
    what: 'moving an upcoming booking of A’s to another day (a fresh one for each caller)',
    call: async (role, f) => ({
      method: 'POST',
      url: `/api/booking/${(await unpaidBooking(f.t, f.people.A)).id}/reschedule`,
      payload: { date: mediumDay(433 + ROLES.indexOf(role)), slot: '11:00 AM - 11:30 AM' },
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'PATCH /api/booking/:id',
    what: "confirming A's paid booking again with its own transaction",
    call: (_role, f) => ({
      method: 'PATCH',
      url: `/api/booking/${f.a.paid.id}`,
      payload: { appointmentId: f.a.paid.id, transactionId: f.a.transactionId },
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'PATCH /api/booking/:id',
    what: "marking A's unpaid booking paid with a payment that has not succeeded",
    call: (_role, f) => ({
      method: 'PATCH',
      url: `/api/booking/${f.a.unpaid.id}`,
      payload: { appointmentId: f.a.unpaid.id, transactionId: f.a.intentId },
    }),
    expect: { anon: 401, A: 400, B: 403, admin: 403 },
  },
  {
    route: 'GET /api/schedule',
    what: "the clinic's schedule of the days holding A's and B's bookings",
    call: () => get(`/api/schedule?from=${clinicDay(0)}&to=${clinicDay(30)}`),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/schedule.csv',
    what: 'the same schedule as a CSV file',
    call: () => get(`/api/schedule.csv?from=${clinicDay(0)}&to=${clinicDay(30)}`),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/schedule/search',
    what: "a search of every date for A's bookings by name",
    call: () => get('/api/schedule/search?q=alice%20enamel'),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/booking/:id/status',
    what: "marking A's visit of an earlier day arrived (a fresh one for each caller)",
    call: async (_role, f) => ({
      method: 'PATCH',
      url: `/api/booking/${(await pastBookingOfA(f)).id}/status`,
      payload: { status: 'arrived' },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/booking/:id/cancel',
    what: "the clinic cancelling an unpaid booking of A's (a fresh one for each caller)",
    call: async (_role, f) => ({
      method: 'POST',
      url: `/api/booking/${(await unpaidBooking(f.t, f.people.A)).id}/cancel`,
      payload: { reason: 'The clinic is closed that day.' },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/treatments',
    what: "the clinic's treatments, retired ones included",
    call: () => get('/api/treatments'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/treatments',
    what: 'adding a treatment (a name of its own for each caller)',
    call: (role) => ({
      method: 'POST',
      url: '/api/treatments',
      payload: {
        name: `Matrix Treatment ${role}`,
        description: 'A treatment of the matrix',
        price: 55.5,
        slots: ['9:00 AM - 9:30 AM', '9:30 AM - 10:00 AM'],
      },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'PATCH /api/treatments/:id',
    what: "changing a treatment's description",
    call: () => ({
      method: 'PATCH',
      url: '/api/treatments/pediatric-dental',
      payload: { description: 'Gentle dental care for children.' },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/clinic/calendar',
    what: 'the closed dates of the next month (public)',
    call: () => get(`/api/clinic/calendar?from=${clinicDay(0)}&to=${clinicDay(30)}`),
    expect: all(200),
  },
  {
    route: 'PUT /api/clinic/opening-days',
    what: 'opening every day of the week (the default, so that nothing else changes)',
    call: () => ({
      method: 'PUT',
      url: '/api/clinic/opening-days',
      payload: { days: [0, 1, 2, 3, 4, 5, 6] },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/closures',
    what: 'the closures not over yet, with the bookings on their days',
    call: () => get('/api/closures'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/closures',
    what: 'closing a day far from every booking (a day of its own for each caller)',
    call: (role) => {
      const day = clinicDay(600 + ROLES.indexOf(role));
      return {
        method: 'POST',
        url: '/api/closures',
        payload: { from: day, to: day, label: `Matrix closure ${role}` },
      };
    },
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/closures/:id',
    what: 'removing a closure (a fresh one for each caller)',
    call: async (role, f) => ({
      method: 'DELETE',
      url: `/api/closures/${await matrixClosure(f, role)}`,
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/clinic/rules',
    what: 'the booking rules',
    call: () => get('/api/clinic/rules'),
    expect: adminOnly(200),
  },
  {
    route: 'PUT /api/clinic/rules',
    what: 'storing the booking rules as the environment sets them (nothing else changes)',
    call: (_role, f) => ({
      method: 'PUT',
      url: '/api/clinic/rules',
      payload: { ...f.t.config.bookingRules },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/create-payment-intent',
    what: "paying A's unpaid booking",
    call: (_role, f) => ({
      method: 'POST',
      url: '/api/create-payment-intent',
      payload: { bookingId: f.a.unpaid.id, price: 80 },
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'POST /api/demo-gateway/confirm',
    what: "a declined card on A's payment intent",
    call: (_role, f) => ({
      method: 'POST',
      url: '/api/demo-gateway/confirm',
      payload: {
        clientSecret: f.a.clientSecret,
        card: DECLINED_CARD,
        billingDetails: { name: 'Card Holder', email: 'holder@mail.com' },
      },
    }),
    expect: { anon: 401, A: 200, B: 403, admin: 403 },
  },
  {
    route: 'GET /api/users',
    what: 'the user list',
    call: () => get('/api/users?limit=200'),
    expect: adminOnly(200),
  },
  {
    route: 'PUT /api/user/admin/:email',
    what: 'making a bystander an admin',
    call: async (_role, f) => ({ method: 'PUT', url: `/api/user/admin/${await bystander(f)}` }),
    expect: adminOnly(200),
  },
  {
    route: 'PUT /api/user/admin/:email',
    what: 'making oneself an admin',
    call: (role, f) => ({
      method: 'PUT',
      url: `/api/user/admin/${role === 'anon' ? f.people.A.email : f.people[role].email}`,
    }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/user/admin/:email',
    what: "taking a bystander admin's role",
    call: async (_role, f) => {
      const email = await bystander(f);
      await setAdmin(f.t.db, email, true);
      return { method: 'DELETE', url: `/api/user/admin/${email}` };
    },
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/user/admin/:email',
    what: "taking one's own admin role",
    call: (role, f) => ({
      method: 'DELETE',
      url: `/api/user/admin/${role === 'anon' ? f.people.admin.email : f.people[role].email}`,
    }),
    expect: adminOnly(409),
  },
  {
    route: 'DELETE /api/user/:email',
    what: "removing a bystander's account",
    call: async (_role, f) => ({ method: 'DELETE', url: `/api/user/${await bystander(f)}` }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/user/:email',
    what: "removing A's account",
    // Admins would succeed; the admin's call is left to the bystander row so A stays.
    call: (role, f) => ({
      method: 'DELETE',
      url: `/api/user/${role === 'admin' ? f.people.admin.email : f.people.A.email}`,
    }),
    expect: { anon: 401, A: 403, B: 403, admin: 409 },
  },
  {
    route: 'GET /api/booking/history',
    what: "the caller's past and cancelled visits",
    call: () => get('/api/booking/history'),
    expect: { anon: 401, A: 200, B: 200, admin: 200 },
  },
  {
    route: 'GET /api/account/export',
    what: "the caller's own data",
    call: () => get('/api/account/export'),
    expect: { anon: 401, A: 200, B: 200, admin: 200 },
  },
  {
    route: 'DELETE /api/account',
    what: "removing the caller's own account with a wrong password",
    // A right password would remove A or B for the rows that follow; its tests are the account's.
    call: () => ({
      method: 'DELETE',
      url: '/api/account',
      payload: { password: 'not-the-password', confirmation: 'DELETE' },
    }),
    expect: { anon: 401, A: 403, B: 403, admin: 409 },
  },
  {
    route: 'GET /api/doctor',
    what: 'the doctors',
    call: () => get('/api/doctor'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/doctor',
    what: 'adding a doctor with a stored photo',
    call: async (role, f) => ({
      method: 'POST',
      url: '/api/doctor',
      payload: {
        name: 'Dr New',
        email: `drnew${ROLES.indexOf(role)}@clinic.com`,
        specialty: 'Cavity Filling',
        image: role === 'admin' ? await uploadPhoto(f.t, f.people.admin) : f.image.url,
      },
    }),
    expect: adminOnly(201),
  },
  {
    route: 'DELETE /api/doctor/:id',
    what: 'deleting a doctor (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'DELETE',
      url: `/api/doctor/${await addDoctor(f.t, f.people.admin)}`,
    }),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/doctor/:id',
    what: "changing a doctor's work days (a fresh one for each caller)",
    call: async (_role, f) => {
      const email = await addDoctor(f.t, f.people.admin);
      const { id } = await f.t.db
        .selectFrom('doctor')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      return { method: 'PATCH', url: `/api/doctor/${id}`, payload: { workDays: [1, 2, 3, 4, 5] } };
    },
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/doctors/available',
    what: 'the doctors free for a slot',
    call: () =>
      get(
        `/api/doctors/available?treatmentId=teeth-cleaning&date=${encodeURIComponent(mediumDay(3))}&slot=${encodeURIComponent('10:00 AM - 10:30 AM')}`,
      ),
    expect: all(200),
  },
  {
    route: 'POST /api/doctor/:id/calendar-feed',
    what: "a new calendar feed URL for the fixtures' doctor",
    call: (_role, f) => ({ method: 'POST', url: `/api/doctor/${f.doctor.id}/calendar-feed` }),
    expect: adminOnly(200),
  },
  {
    route: 'DELETE /api/doctor/:id/calendar-feed',
    what: "turning off the fixtures' doctor's calendar feed",
    call: (_role, f) => ({ method: 'DELETE', url: `/api/doctor/${f.doctor.id}/calendar-feed` }),
    expect: adminOnly(204),
  },
  {
    route: 'GET /api/calendar/:file',
    what: "a doctor's calendar feed at its secret URL (a fresh one for each caller)",
    call: async (_role, f) => ({ method: 'GET', url: await calendarFeedPath(f) }),
    expect: all(200),
  },
  {
    route: 'GET /api/calendar/:file',
    what: 'a calendar feed URL that was never made',
    call: () => get(`/api/calendar/${'A'.repeat(43)}.ics`),
    expect: all(404),
  },
  {
    route: 'POST /api/image',
    what: 'uploading a photo',
    call: async () => {
      const body = multipartBody([
        { filename: 'photo.png', contentType: 'image/png', data: await photoPng(64, 64) },
      ]);
      return { method: 'POST', url: '/api/image', payload: body.payload, headers: body.headers };
    },
    expect: adminOnly(201),
  },
  {
    route: 'GET /api/audit',
    what: 'the audit log, holding A’s booking and payment',
    call: () => get('/api/audit?limit=200'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/contact',
    what: 'a message through the Contact Us form (public)',
    call: (role) => ({
      method: 'POST',
      url: '/api/contact',
      payload: { email: `visitor-${role.toLowerCase()}@mail.com`, subject: 'Hi', message: 'Hello' },
    }),
    expect: all(201),
  },
  {
    route: 'GET /api/contact-messages',
    what: 'the Contact Us messages',
    call: () => get('/api/contact-messages'),
    expect: adminOnly(200),
  },
  {
    route: 'PATCH /api/contact-messages/:id',
    what: 'marking a message read (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'PATCH',
      url: `/api/contact-messages/${(await contactMessage(f)).id}`,
      payload: { read: true },
    }),
    expect: adminOnly(200),
  },
  {
    route: 'GET /api/mail/failures',
    what: 'the mail the portal failed to send',
    call: () => get('/api/mail/failures'),
    expect: adminOnly(200),
  },
  {
    route: 'POST /api/mail/failures/:id/retry',
    what: 'sending a failed message again (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'POST',
      url: `/api/mail/failures/${await failedMail(f.t.db)}/retry`,
    }),
    expect: adminOnly(204),
  },
  {
    route: 'POST /api/mail/failures/:id/retry',
    what: 'a message that is not there',
    call: () => ({ method: 'POST', url: `/api/mail/failures/${randomUUID()}/retry` }),
    expect: adminOnly(404),
  },
  {
    route: 'GET /api/visit/:token',
    what: 'what a mail link to A’s booking does (public: the signed link is the credential)',
    call: async (_role, f) => get(`/api/visit/${await visitLinkOfA(f, 'cancel')}`),
    expect: all(200),
  },
  {
    route: 'GET /api/visit/:token',
    what: 'a link this portal did not sign',
    call: () => get('/api/visit/not-a-signed-link'),
    expect: all(404),
  },
  {
    route: 'POST /api/visit/:token/confirm',
    what: 'confirming A’s booking through its mail link (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'POST',
      url: `/api/visit/${await visitLinkOfA(f, 'confirm')}/confirm`,
    }),
    expect: all(200),
  },
  {
    route: 'POST /api/visit/:token/cancel',
    what: 'cancelling A’s unpaid booking through its mail link (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'POST',
      url: `/api/visit/${await visitLinkOfA(f, 'cancel')}/cancel`,
    }),
    expect: all(200),
  },
  {
    route: 'POST /api/visit/:token/reschedule',
    what: 'moving A’s booking through its mail link (a fresh one for each caller)',
    call: async (role, f) => ({
      method: 'POST',
      url: `/api/visit/${await visitLinkOfA(f, 'reschedule')}/reschedule`,
      payload: { date: mediumDay(441 + ROLES.indexOf(role)), slot: '11:00 AM - 11:30 AM' },
    }),
    expect: all(200),
  },
  {
    route: 'POST /api/waitlist',
    what: 'joining the list of a full day (a fresh day for each caller)',
    call: async (_role, f) => ({
      method: 'POST',
      url: '/api/waitlist',
      payload: { treatmentId: WAITLIST_TREATMENT, date: await fullWaitlistDay(f) },
    }),
    expect: { anon: 401, A: 201, B: 201, admin: 201 },
  },
  {
    route: 'GET /api/waitlist',
    what: 'the caller’s own waitlist entries',
    call: () => get('/api/waitlist'),
    expect: { anon: 401, A: 200, B: 200, admin: 200 },
  },
  {
    route: 'DELETE /api/waitlist/:id',
    what: 'leaving A’s waitlist entry (a fresh one for each caller)',
    call: async (_role, f) => ({
      method: 'DELETE',
      url: `/api/waitlist/${await waitlistEntryOfA(f)}`,
    }),
    expect: { anon: 401, A: 204, B: 403, admin: 403 },
  },
  {
    route: 'DELETE /api/waitlist/:id',
    what: 'an entry that is not there',
    call: () => ({ method: 'DELETE', url: `/api/waitlist/${randomUUID()}` }),
    expect: { anon: 401, A: 404, B: 404, admin: 404 },
  },
  {
    route: 'POST /api/stripe/webhook',
    what: 'an event without a Stripe signature (whoever sends it)',
    stripe: true,
    call: () => ({
      method: 'POST',
      url: '/api/stripe/webhook',
      payload: webhookEvent(),
      headers: { 'content-type': 'application/json' },
    }),
    expect: all(400),
  },
  {
    route: 'POST /api/stripe/webhook',
    what: 'an event signed with the webhook secret (the signature is the credential)',
    stripe: true,
    call: () => {
      const payload = webhookEvent();
      return {
        method: 'POST',
        url: '/api/stripe/webhook',
        payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: STRIPE_ENV.STRIPE_WEBHOOK_SECRET,
          }),
        },
      };
    },
    expect: all(200),
  },
];

function get(url: string): Call {
  return { method: 'GET', url };
}

/** The headers a browser on the portal's own page would send for this caller. */
function headersFor(role: Role, f: SecurityFixtures, call: Call, credential: 'bearer' | 'cookie') {
  const headers: Record<string, string> = { ...call.headers };
  if (call.method !== 'GET') headers.origin = f.t.config.publicUrl;
  if (role === 'anon') return headers;
  const person = f.people[role];
  if (credential === 'bearer') Object.assign(headers, bearer(person.token));
  else headers.cookie = person.cookie;
  return headers;
}

describe(`authorisation matrix (${engine})`, () => {
  let demo: SecurityFixtures;
  let stripe: SecurityFixtures;
  let calls = 0;
  let cookieOnlyCalls = 0;

  beforeAll(async () => {
    demo = await buildSecurityFixtures();
    stripe = await buildSecurityFixtures(STRIPE_ENV);
  }, 60_000);

  afterAll(async () => {
    const routes = new Set(rows.map((row) => row.route)).size;
    // biome-ignore lint/suspicious/noConsole: the figures are the point of this suite.
    console.log(
      `authorisation matrix (${engine}): ${routes} routes, ${rows.length} rows × ${ROLES.length} roles = ${calls} calls, plus ${cookieOnlyCalls} cookie-without-token calls`,
    );
    await demo?.t.close();
    await stripe?.t.close();
  });

  it('has a row for every route the server registers, and none for a route it does not', () => {
    const served = new Set([
      ...apiRoutes(demo.routes).map(routeKey),
      ...apiRoutes(stripe.routes).map(routeKey),
    ]);
    const covered = new Set(rows.map((row) => row.route));
    expect([...served].filter((route) => !covered.has(route))).toEqual([]);
    for (const row of rows) {
      const routes = apiRoutes((row.stripe ? stripe : demo).routes).map(routeKey);
      expect(routes, `${row.route} is not served`).toContain(row.route);
    }
    // The surface left out above is the auth library's and the OpenAPI browser's own.
    const left = demo.routes
      .map(routeKey)
      .filter((route) => !served.has(route) && !route.startsWith('HEAD '));
    expect(left.every((route) => /^(GET|POST) \/api\/(auth|docs)(\/|$)/.test(route))).toBe(true);
  });

  describe.each(rows)('$route: $what', (row) => {
    it('answers each caller as the table says, and never with A’s data to others', async () => {
      const f = row.stripe ? stripe : demo;
      const secrets = secretsOfA(f);
      const got: Partial<Record<Role, number>> = {};
      const leaks: string[] = [];
      // Answers with anyone's personal data must not be kept by browsers or shared caches.
      const uncached: string[] = [];
      for (const role of ROLES) {
        const call = await row.call(role, f);
        const response = await f.t.app.inject({
          method: call.method,
          url: call.url,
          headers: headersFor(role, f, call, row.credential ?? 'bearer'),
          ...(call.payload === undefined ? {} : { payload: call.payload }),
        });
        calls += 1;
        got[role] = response.statusCode;
        if (response.statusCode >= 400) {
          const message = (response.json() as { message?: unknown }).message;
          expect(typeof message === 'string' && message.length > 0).toBe(true);
        }
        const personal = [f.people.A, f.people.B, f.people.admin]
          .flatMap((person) => [person.email, person.token])
          .concat(f.a.phone, f.b.phone);
        if (personal.some((value) => response.body.includes(value))) {
          const cache = String(response.headers['cache-control']);
          if (!/no-store|private/.test(cache)) uncached.push(`${role}: cache-control ${cache}`);
        }
        if (role === 'anon' || role === 'B') {
          const answer = `${JSON.stringify(response.headers)}\n${response.body}`;
          for (const [what, value] of Object.entries(secrets)) {
            if (answer.includes(value)) leaks.push(`${role} got ${what}`);
          }
        }
      }
      expect(got).toEqual(row.expect);
      expect(leaks).toEqual([]);
      expect(uncached).toEqual([]);
    });
  });

  it('asks who is calling before what they ask: 401 to an anonymous call, whatever its input', async () => {
    const f = demo;
    const answered: string[] = [];
    for (const row of rows) {
      // The token's own route reads the session cookie in its handler, after its input.
      if (row.stripe || row.credential === 'cookie' || row.expect.anon !== 401) continue;
      const call = await row.call('anon', f);
      const withBody = call.method !== 'GET' && call.method !== 'DELETE';
      // No query, and a body that is not even JSON.
      const response = await f.t.app.inject({
        method: call.method,
        url: call.url.split('?')[0] as string,
        ...(withBody && {
          headers: { 'content-type': 'application/json' },
          payload: '{"date": ',
        }),
      });
      if (response.statusCode !== 401) answered.push(`${row.route}: ${response.statusCode}`);
    }
    expect(answered).toEqual([]);
  });

  it('opens no token-protected route to a session cookie alone (so no cross-site request can)', async () => {
    const f = demo;
    const refused: string[] = [];
    for (const row of rows) {
      if (row.stripe || row.credential === 'cookie' || row.expect.anon !== 401) continue;
      const call = await row.call('A', f);
      const response = await f.t.app.inject({
        method: call.method,
        url: call.url,
        headers: { ...call.headers, cookie: f.people.A.cookie, origin: f.t.config.publicUrl },
        ...(call.payload === undefined ? {} : { payload: call.payload }),
      });
      cookieOnlyCalls += 1;
      if (response.statusCode !== 401) refused.push(`${row.route}: ${response.statusCode}`);
    }
    expect(refused).toEqual([]);
  });

  describe("the auth library's own endpoints", () => {
    const authGet = (f: SecurityFixtures, path: string, cookie?: string) =>
      f.t.app.inject({
        method: 'GET',
        url: `/api/auth${path}`,
        headers: cookie ? { cookie } : {},
      });

    it('tell each caller only their own sessions and sign-in methods, and end only theirs', async () => {
      const f = demo;
      const anon = await authGet(f, '/get-session');
      expect(anon.statusCode).toBe(200);
      expect(anon.json()).toBeNull();
      const b = await authGet(f, '/get-session', f.people.B.cookie);
      expect(b.json()).toMatchObject({ user: { email: f.people.B.email } });
      expect(b.body).not.toContain(f.people.A.email);

      expect((await authGet(f, '/list-sessions')).statusCode).toBe(401);
      const sessions = await authGet(f, '/list-sessions', f.people.B.cookie);
      expect(sessions.statusCode).toBe(200);
      expect(sessions.body).not.toContain(f.people.A.email);

      // The account page reads from it whether the account has a password.
      expect((await authGet(f, '/list-accounts')).statusCode).toBe(401);
      const accounts = await authGet(f, '/list-accounts', f.people.B.cookie);
      expect(accounts.statusCode).toBe(200);
      expect(accounts.json()).toMatchObject([{ providerId: 'credential', userId: f.people.B.id }]);
      expect(accounts.body).not.toContain(f.people.A.id);

      // Signing out everywhere else ends only the caller's own other sessions.
      expect((await authRequest(f.t.app, '/revoke-other-sessions', {})).statusCode).toBe(401);
      const revoked = await authRequest(
        f.t.app,
        '/revoke-other-sessions',
        {},
        { cookie: f.people.B.cookie },
      );
      expect(revoked.statusCode).toBe(200);
      expect((await authGet(f, '/get-session', f.people.A.cookie)).json()).toMatchObject({
        user: { email: f.people.A.email },
      });
      expect((await authGet(f, '/get-session', f.people.B.cookie)).json()).toMatchObject({
        user: { email: f.people.B.email },
      });
    });

    it('let nobody give themselves the admin role', async () => {
      const f = demo;
      const update = await authRequest(
        f.t.app,
        '/update-user',
        { name: 'Alice Enamel', role: 'admin' },
        { cookie: f.people.A.cookie },
      );
      expect(update.statusCode).toBe(400);
      const signUpAsAdmin = await authRequest(f.t.app, '/sign-up/email', {
        name: 'Mallory',
        email: `mallory${Date.now()}@mail.com`,
        password: 'plaque-free-smile-42',
        role: 'admin',
      });
      expect(signUpAsAdmin.statusCode).toBe(400);
      const token = await accessToken(f.t.app, f.people.A);
      const users = await f.t.app.inject({
        method: 'GET',
        url: '/api/users',
        headers: bearer(token),
      });
      expect(users.statusCode).toBe(403);
    });

    it("expose no admin endpoints of the auth library's (roles are the portal's)", async () => {
      const f = demo;
      for (const path of ['/admin/list-users', '/admin/set-role', '/admin/impersonate-user']) {
        const response = await f.t.app.inject({
          method: path === '/admin/list-users' ? 'GET' : 'POST',
          url: `/api/auth${path}`,
          headers: { cookie: f.people.admin.cookie, origin: f.t.config.publicUrl },
          ...(path === '/admin/list-users' ? {} : { payload: { userId: 'x', role: 'admin' } }),
        });
        expect(response.statusCode, path).toBe(404);
      }
    });
  });
});
