import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authRequest, signIn, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';

/**
 * Sign-up does not tell who has an account: a sign-up for a registered address is answered as
 * one for a new address, and the address's owner is told by mail instead.
 */

interface SignUpAnswer {
  token: unknown;
  user: Record<string, unknown>;
}

const linksIn = (text: string | undefined) => (text ?? '').match(/https?:\/\/\S+/g) ?? [];

/** The shape of a JSON value: its keys and the types of their values, recursively. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [key, shapeOf(inner)]),
    );
  }
  return typeof value;
}

describe(`sign-up does not tell who has an account (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  const attempt = (email: string, password = 'someone-elses-secret-9', name = 'Mallory') =>
    authRequest(t.app, '/sign-up/email', { name, email, password, callbackURL: '/dashboard' });

  it('answers a sign-up for a registered address as it answers one for a new address', async () => {
    const owner = await signUp(t.app, { name: 'Olivia Owner' });
    const real = await t.db
      .selectFrom('user')
      .selectAll()
      .where('email', '=', owner.email)
      .executeTakeFirstOrThrow();

    const fresh = await attempt(`fresh-${Date.now()}@mail.com`);
    const taken = await attempt(owner.email.toUpperCase());

    expect(fresh.statusCode).toBe(200);
    expect(taken.statusCode).toBe(200);
    const freshBody = fresh.json() as SignUpAnswer;
    const takenBody = taken.json() as SignUpAnswer;
    expect(shapeOf(takenBody)).toEqual(shapeOf(freshBody));
    expect(Object.keys(takenBody.user)).toEqual(Object.keys(freshBody.user));
    expect(String(takenBody.token)).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fresh.headers['content-type']).toBe(taken.headers['content-type']);
    expect(fresh.headers['cache-control']).toBe(taken.headers['cache-control']);

    // Nothing in the answer is the real account's.
    expect(takenBody.user).toMatchObject({
      name: 'Mallory',
      email: owner.email,
      emailVerified: false,
      image: null,
      role: null,
    });
    expect(takenBody.user.id).not.toBe(real.id);
    expect(takenBody.user.createdAt).not.toBe(new Date(real.createdAt).toISOString());

    // The one difference a caller can see: only a real new account is signed in.
    expect(fresh.headers['set-cookie']).toBeDefined();
    expect(taken.headers['set-cookie']).toBeUndefined();
  });

  it('answers sign-ups racing for one new address as one for a registered address, with one account made', async () => {
    const email = `racing-${Date.now()}@mail.com`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => attempt(email, `racing-secret-${index}-x`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.headers['set-cookie'])).toHaveLength(1);
    const users = await t.db.selectFrom('user').select('id').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
  });

  it('leaves the registered account as it was', async () => {
    const owner = await signUp(t.app, { name: 'Olivia Owner' });
    await attempt(owner.email, 'takeover-attempt-1', 'Mallory');
    const users = await t.db
      .selectFrom('user')
      .select(['name'])
      .where('email', '=', owner.email)
      .execute();
    expect(users).toEqual([{ name: 'Olivia Owner' }]);
    expect((await signIn(t.app, owner.email, 'takeover-attempt-1')).response.statusCode).toBe(401);
    expect((await signIn(t.app, owner.email, owner.password)).response.statusCode).toBe(200);
  });

  it('mails the owner that someone tried, with a link to sign in and one to reset the password', async () => {
    const owner = await signUp(t.app, { name: 'Olivia Owner' });
    await smtp.waitForMail((m) => m.envelope.to.includes(owner.email));
    smtp.clear();

    const taken = await attempt(owner.email);
    expect(taken.statusCode).toBe(200);

    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(owner.email));
    expect(mail.subject).toBe(
      `Someone tried to create a ${t.config.clinic.name} account with your address`,
    );
    expect(mail.text).toContain('Hello Olivia Owner,');
    expect(mail.text).toContain('You already have an account with us');
    const [login, reset, ...more] = linksIn(mail.text).map((link) => new URL(link));
    expect(more).toEqual([]);
    expect(login?.href).toBe(`${t.config.publicUrl}/login`);
    expect(mail.html).toContain(`href="${t.config.publicUrl}/login"`);

    // The reset link works as the one 'Forgot password?' mails.
    expect(reset?.origin).toBe(t.config.publicUrl);
    const landing = await t.app.inject(`${reset?.pathname}${reset?.search}`);
    expect(landing.statusCode).toBe(302);
    const token = new URL(String(landing.headers.location), t.config.publicUrl).searchParams.get(
      'token',
    );
    expect(new URL(String(landing.headers.location), t.config.publicUrl).pathname).toBe(
      '/reset-password',
    );
    const changed = await authRequest(t.app, '/reset-password', {
      token,
      newPassword: 'owner-chose-this-3',
    });
    expect(changed.statusCode).toBe(200);
    expect((await signIn(t.app, owner.email, 'owner-chose-this-3')).response.statusCode).toBe(200);

    // No verification mail goes to the owner for the attempt.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(smtp.messages.filter((m) => m.envelope.to.includes(owner.email))).toHaveLength(1);
  });

  it('hashes the password for a registered address as it does for a new one', async () => {
    const owner = await signUp(t.app);
    const context = await t.app.auth.$context;
    const hash = vi.spyOn(context.password, 'hash');
    await attempt(`another-${Date.now()}@mail.com`);
    expect(hash).toHaveBeenCalledTimes(1);
    await attempt(owner.email);
    expect(hash).toHaveBeenCalledTimes(2);
  });

  it('refuses a registered address from another site as it refuses a new one', async () => {
    const owner = await signUp(t.app);
    const fromElsewhere = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        remoteAddress: '10.66.0.1',
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        payload: { name: 'Mallory', email, password: 'someone-elses-secret-9' },
      });
    const fresh = await fromElsewhere(`cross-${Date.now()}@mail.com`);
    const taken = await fromElsewhere(owner.email);
    expect(fresh.statusCode).toBe(403);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
  });

  it.each([
    ['a role', { role: 'admin' }],
    ['rememberMe that is not true or false', { rememberMe: 'yes' }],
    ['a picture that is not a string', { image: null }],
    ['a picture from another site', { image: 'https://tracker.example/p.png' }],
  ])('refuses %s for a registered address as for a new one', async (_kind, extra) => {
    const owner = await signUp(t.app);
    const send = (email: string) =>
      authRequest(t.app, '/sign-up/email', {
        name: 'Mallory',
        email,
        password: 'someone-elses-secret-9',
        ...extra,
      });
    const fresh = await send(`crafted-${Date.now()}@mail.com`);
    const taken = await send(owner.email);
    expect(fresh.statusCode).toBeGreaterThanOrEqual(400);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
  });

  it('still signs a new patient in and mails the verification link', async () => {
    const email = `new-${Date.now()}@mail.com`;
    const response = await attempt(email, 'brush-twice-daily', 'Nina New');
    expect(response.statusCode).toBe(200);
    const cookie = String(response.headers['set-cookie']).split(';', 1)[0] ?? '';
    const session = await t.app.inject({
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    expect(session.json().user).toMatchObject({ email, name: 'Nina New' });
    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(email));
    expect(mail.subject).toMatch(/verify/i);
  });
});
