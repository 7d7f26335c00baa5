import {
  type AvailableTreatment,
  addDays,
  type Booking,
  bookingSchema,
  type Clinic,
  type IsoDate,
  type Treatment,
  todayIn,
} from '@doctors-portal/contract';
import type { SessionUser } from '../lib/auth/auth-api';
import { type ApiStub, failure, stubApi } from './fetch-stub';

/** Test data in the API's own shapes, built and encoded with the contract's schemas. */

/**
 * The date `offset` days after today where the tests run: tests name the days of bookings from
 * it, never by year, so that none becomes a past day as time goes by.
 */
export function dayFromToday(offset: number): IsoDate {
  return addDays(todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone), offset);
}

export const patient: SessionUser = {
  id: 'user-1',
  name: 'Maya Cohen',
  email: 'maya@mail.com',
  emailVerified: true,
  image: null,
};

/** The clinic as `GET /api/clinic` describes it. */
export const clinic: Clinic = {
  name: 'Doctors Portal',
  phone: '+1 555 010 0000',
  address: '1 Main Street',
  email: 'desk@clinic.test',
  hours: 'Sat - Fri, 10:00 AM to 10:00 PM',
  timeZone: 'America/New_York',
  signInWithGoogle: true,
};

export const treatment: AvailableTreatment = {
  _id: 'teeth-cleaning',
  name: 'Teeth Cleaning',
  slots: ['08:00 AM - 08:30 AM', '08:30 AM - 09:00 AM'],
  price: 80,
};

/** A treatment of the catalogue as `GET /api/treatments` lists it (retired ones too). */
export function catalogueTreatment(overrides: Partial<Treatment> = {}): Treatment {
  return {
    _id: 'teeth-cleaning',
    name: 'Teeth Cleaning',
    description: '',
    price: 80,
    slots: ['10:00 AM - 10:30 AM', '10:30 AM - 11:00 AM'],
    retired: false,
    retiredAt: null,
    sortOrder: 1,
    ...overrides,
  };
}

/** A booking as the app holds it: its date an IsoDate. */
export function booking(overrides: Partial<Booking> = {}): Booking {
  return {
    _id: 'booking-1',
    patientName: patient.name,
    patientMail: patient.email,
    date: '2030-01-05' as IsoDate,
    slot: '08:00 AM - 08:30 AM',
    treatment: 'Teeth Cleaning',
    treatmentId: 'teeth-cleaning',
    price: 80,
    phone: '+1 555 010 2222',
    age: 34,
    paid: false,
    transactionId: null,
    status: 'booked',
    cancellable: true,
    cancelReason: null,
    refund: null,
    ...overrides,
  };
}

/** The same booking as the server sends it: its date in the medium format ('Jan 5, 2030'). */
export const onTheWire = (value: Booking) => bookingSchema.encode(value);

/**
 * The identity service and the token exchange answer for `user` (signed in), or say nobody is
 * signed in (null). `admin` is what `GET /api/admin/{email}` answers.
 */
export function signIn(api: ApiStub, user: SessionUser | null, { admin = false } = {}) {
  api.on('GET /api/auth/get-session', { body: user ? { user, session: { id: 's-1' } } : null });
  api.on(
    'GET /api/auth/list-sessions',
    user ? { body: [{ id: 's-1' }] } : failure(401, 'Unauthorized'),
  );
  api.on('PUT /api/user/:email', {
    body: { token: 'token-1', expiresAt: new Date(Date.now() + 15 * 60 * 1000).toISOString() },
  });
  api.on('GET /api/admin/:email', { body: { admin } });
  api.on('POST /api/auth/sign-out', { body: { success: true } });
}

/**
 * The API as a back-office screen meets it: the clinic's details, `routes`, and an administrator
 * signed in.
 */
export function stubAdminApi(routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi({ 'GET /api/clinic': { body: clinic }, ...routes });
  signIn(api, patient, { admin: true });
  return api;
}
