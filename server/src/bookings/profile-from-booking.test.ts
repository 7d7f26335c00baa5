import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, accessToken, authRequest, bearer, signUp } from '../../test/accounts.js';
import { mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * A booking fills the gaps of the patient's profile with the phone and age it was made with, so
 * that the next booking form starts filled in; what the profile holds already is never changed.
 */
describe(`a booking fills the patient's profile (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const book = async (account: Account, day: number, fields: { phone: string; age: number }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(await accessToken(t.app, account)),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(day),
        slot: '10:00 AM - 10:30 AM',
        ...fields,
      },
    });
  const profileOf = (account: Account) =>
    t.db
      .selectFrom('user')
      .select(['phone', 'age'])
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();

  it('takes both from the first booking, and keeps them on the next one with other values', async () => {
    const patient = await signUp(t.app, { name: 'Frida First' });
    const first = await book(patient, 61, { phone: ' +1 555 010 1111 ', age: 34 });
    expect(first.statusCode, first.body).toBe(201);
    expect(await profileOf(patient)).toEqual({ phone: '+1 555 010 1111', age: 34 });

    const second = await book(patient, 62, { phone: '+44 20 7946 0000', age: 35 });
    expect(second.statusCode, second.body).toBe(201);
    expect(await profileOf(patient)).toEqual({ phone: '+1 555 010 1111', age: 34 });
    // The booking itself keeps what was given for that visit.
    const kept = await t.db
      .selectFrom('booking')
      .select(['phone', 'age'])
      .where('patient_id', '=', patient.id)
      .where('phone', '=', '+44 20 7946 0000')
      .executeTakeFirst();
    expect(kept).toEqual({ phone: '+44 20 7946 0000', age: 35 });
  });

  it('fills only the age of a profile that has a phone', async () => {
    const patient = await signUp(t.app, { name: 'Pia Phone' });
    const set = await authRequest(
      t.app,
      '/update-user',
      { phone: '+1 555 010 9999' },
      { cookie: patient.cookie },
    );
    expect(set.statusCode).toBe(200);
    expect((await book(patient, 65, { phone: '+1 555 010 2222', age: 58 })).statusCode).toBe(201);
    expect(await profileOf(patient)).toEqual({ phone: '+1 555 010 9999', age: 58 });
  });

  it('changes nothing when the booking is refused', async () => {
    const [holder, latecomer] = await Promise.all([
      signUp(t.app, { name: 'Hana Holder' }),
      signUp(t.app, { name: 'Leo Late' }),
    ]);
    expect((await book(holder, 63, { phone: '+1 555 010 3333', age: 40 })).statusCode).toBe(201);
    const refused = await book(latecomer, 63, { phone: '+1 555 010 4444', age: 41 });
    expect(refused.statusCode).toBe(409);
    expect(await profileOf(latecomer)).toEqual({ phone: null, age: null });
  });

  it("shows the saved values in the patient's session", async () => {
    const patient = await signUp(t.app, { name: 'Sol Session' });
    expect((await book(patient, 64, { phone: '+1 555 010 5555', age: 29 })).statusCode).toBe(201);
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: patient.cookie },
    });
    expect(session.json().user).toMatchObject({ phone: '+1 555 010 5555', age: 29 });
  });
});
