import { messages } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, accessToken, authRequest, bearer, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * The age on a patient's account (migrations/0017): set, changed and cleared through the
 * identity service's update-user with the booking form's rule, in the session's user, in the
 * patient's data download, and gone with the account.
 */
describe(`the age on the account (${engine})`, () => {
  let t: TestApp;
  let account: Account;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await signUp(t.app, { name: 'Alma Age' });
  });
  afterAll(() => t.close());

  const update = (body: Record<string, unknown>) =>
    authRequest(t.app, '/update-user', body, { cookie: account.cookie });
  const storedAge = async (email = account.email) =>
    (await t.db.selectFrom('user').select('age').where('email', '=', email).executeTakeFirst())
      ?.age;
  const session = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: account.cookie },
      })
    ).json().user;

  it('starts without one', async () => {
    expect(await storedAge()).toBeNull();
    expect((await session()).age ?? null).toBeNull();
  });

  it('stores an age, and the session tells it', async () => {
    const response = await update({ age: 41 });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedAge()).toBe(41);
    expect((await session()).age).toBe(41);
  });

  it('reads the text a form sends as the number it spells', async () => {
    expect((await update({ age: ' 42 ' })).statusCode).toBe(200);
    expect(await storedAge()).toBe(42);
  });

  it.each([
    ['below 0', -1],
    ['above 120', 121],
    ['not whole', 41.5],
    ['not a number', 'forty'],
    ['a boolean', true],
  ])(
    "refuses an age %s (400) with the booking form's message, and keeps it",
    async (_kind, age) => {
      const response = await update({ age });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(messages.ageInvalid);
      expect(await storedAge()).toBe(42);
    },
  );

  it('changes the phone and the age together, and the download holds the age', async () => {
    expect((await update({ phone: '+1 555 010 4455', age: 43 })).statusCode).toBe(200);
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/account/export',
      headers: bearer(await accessToken(t.app, account)),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().profile).toMatchObject({ phone: '+1 555 010 4455', age: 43 });
  });

  it('clears it with an empty value or null, leaving the phone', async () => {
    expect((await update({ age: '' })).statusCode).toBe(200);
    expect(await storedAge()).toBeNull();
    await update({ age: 30 });
    expect((await update({ age: null })).statusCode).toBe(200);
    expect(await storedAge()).toBeNull();
    expect((await session()).phone).toBe('+1 555 010 4455');
  });

  it('is taken at sign-up under the same rule', async () => {
    const signUpWith = async (age: unknown) => {
      const email = `ada-${Math.random().toString(36).slice(2)}@mail.com`;
      const response = await authRequest(t.app, '/sign-up/email', {
        name: 'Ada Signup',
        email,
        password: 'brush-twice-daily',
        age,
      });
      return { response, stored: await storedAge(email) };
    };
    const refused = await signUpWith(200);
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json().message).toBe(messages.ageInvalid);
    expect(refused.stored).toBeUndefined();
    const accepted = await signUpWith(27);
    expect(accepted.response.statusCode, accepted.response.body).toBe(200);
    expect(accepted.stored).toBe(27);
  });

  it('goes with the account when the patient removes it', async () => {
    const leaving = await signUp(t.app, { name: 'Lea Leaving' });
    await authRequest(t.app, '/update-user', { age: 52 }, { cookie: leaving.cookie });
    expect(await storedAge(leaving.email)).toBe(52);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { ...bearer(await accessToken(t.app, leaving)), origin: t.app.config.publicUrl },
      payload: { password: leaving.password },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await storedAge(leaving.email)).toBeUndefined();
  });
});
