import { messages } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRequest, signIn, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/** Real email addresses are accepted: lower-cased, with hyphens, sub-domains and more. */
describe(`real email addresses are accepted (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const storedEmails = (email: string) =>
    t.db.selectFrom('user').select('email').where('email', '=', email).execute();

  it.each([
    ['Alice@Example.com', 'alice@example.com', 'ALICE@EXAMPLE.COM'],
    ['bob@my-clinic.com', 'bob@my-clinic.com', 'Bob@My-Clinic.com'],
    ['x@mail.clinic.co.uk', 'x@mail.clinic.co.uk', 'X@Mail.Clinic.Co.Uk'],
    [' Jane.Doe+Teeth@Mail.com ', 'jane.doe+teeth@mail.com', 'jane.doe+teeth@mail.com'],
  ])('signs up %j, stores %j and signs in as %j', async (typed, stored, later) => {
    const password = 'brush-twice-daily';
    const response = await authRequest(t.app, '/sign-up/email', {
      name: 'Ana',
      email: typed,
      password,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.email).toBe(stored);
    expect(await storedEmails(stored)).toEqual([{ email: stored }]);

    expect((await signIn(t.app, later, password)).response.statusCode).toBe(200);
  });

  it('signs in with the address typed in another case', async () => {
    const account = await signUp(t.app, { email: `case-${Date.now()}@mail.com` });
    const upper = account.email.toUpperCase();
    const wrong = await signIn(t.app, upper, 'wrong-password-1');
    expect(wrong.response.statusCode).toBe(401);
    expect((await signIn(t.app, upper, account.password)).response.statusCode).toBe(200);
  });

  it.each(['ana@mail.info', 'ana@-mail.com', 'ana..lee@mail.com', 'Ana <ana@mail.com>'])(
    'refuses to sign up %j with the spec message',
    async (email) => {
      const response = await authRequest(t.app, '/sign-up/email', {
        name: 'Ana',
        email,
        password: 'brush-twice-daily',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(messages.emailInvalid);
    },
  );

  it('lets an account made under the former rule sign in', async () => {
    // The former rule let 'ana@clinic.dental' through; such an account must still sign in.
    const email = `former-${Date.now()}@clinic.dental`;
    const account = await signUp(t.app, { email: email.replace('.dental', '.den') });
    await t.db.updateTable('user').set({ email }).where('email', '=', account.email).execute();
    expect((await signIn(t.app, email, account.password)).response.statusCode).toBe(200);
  });
});
