import { messages } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, accessToken, authRequest, bearer, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * The phone on a patient's account (migrations/0015): set, changed and cleared through the
 * identity service's update-user with the booking form's rule, in the session's user, and in
 * the patient's data download.
 */
describe(`the phone on the account (${engine})`, () => {
  let t: TestApp;
  let account: Account;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await signUp(t.app, { name: 'Paula Phone' });
  });
  afterAll(() => t.close());

  const update = (body: Record<string, unknown>) =>
    authRequest(t.app, '/update-user', body, { cookie: account.cookie });
  const storedPhone = async () =>
    (
      await t.db
        .selectFrom('user')
        .select('phone')
        .where('email', '=', account.email)
        .executeTakeFirstOrThrow()
    ).phone;
  const session = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: account.cookie },
      })
    ).json().user;

  it('starts without one', async () => {
    expect(await storedPhone()).toBeNull();
    expect((await session()).phone ?? null).toBeNull();
  });

  it('stores a phone, trimmed, and the session tells it', async () => {
    const response = await update({ phone: '  +1 (555) 010-7788 ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedPhone()).toBe('+1 (555) 010-7788');
    expect((await session()).phone).toBe('+1 (555) 010-7788');
  });

  it.each([
    ['letters', 'call me maybe'],
    ['too few digits', '12-34'],
    ['too long', '1'.repeat(21)],
    ['not text', 5550107788],
  ])('refuses %s (400) and keeps the phone', async (_kind, phone) => {
    const response = await update({ phone });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(messages.phoneInvalid);
    expect(await storedPhone()).toBe('+1 (555) 010-7788');
  });

  it('changes the name and the phone together, and the download holds the phone', async () => {
    expect((await update({ name: 'Paula P. Phone', phone: '+44 20 7946 0958' })).statusCode).toBe(
      200,
    );
    const token = await accessToken(t.app, account);
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/account/export',
      headers: bearer(token),
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().profile).toMatchObject({
      name: 'Paula P. Phone',
      phone: '+44 20 7946 0958',
    });
  });

  it('clears it with an empty value or null', async () => {
    expect((await update({ phone: '' })).statusCode).toBe(200);
    expect(await storedPhone()).toBeNull();
    await update({ phone: '+1 555 010 7788' });
    expect((await update({ phone: null })).statusCode).toBe(200);
    expect(await storedPhone()).toBeNull();
  });

  /** Signs up a new address with `phone`: the answer, and the phone stored for it (if any). */
  async function signUpWith(phone: unknown) {
    const email = `sam-${Math.random().toString(36).slice(2)}@mail.com`;
    const response = await authRequest(t.app, '/sign-up/email', {
      name: 'Sam Signup',
      email,
      password: 'brush-twice-daily',
      phone,
    });
    const row = await t.db
      .selectFrom('user')
      .select('phone')
      .where('email', '=', email)
      .executeTakeFirst();
    return { response, stored: row?.phone };
  }

  it('is taken at sign-up under the same rule', async () => {
    const refused = await signUpWith('nope');
    expect(refused.response.statusCode).toBe(400);
    expect(refused.response.json().message).toBe(messages.phoneInvalid);
    expect(refused.stored).toBeUndefined();
    const accepted = await signUpWith(' +1 555 010 4321 ');
    expect(accepted.response.statusCode, accepted.response.body).toBe(200);
    expect(accepted.stored).toBe('+1 555 010 4321');
    const blank = await signUpWith('');
    expect(blank.response.statusCode, blank.response.body).toBe(200);
    expect(blank.stored).toBeNull();
  });
});
