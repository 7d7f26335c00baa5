import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, authRequest, bearer, signIn, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  cookiesOf,
  startTestOidcProvider,
  type TestOidcProvider,
  throughProvider,
} from '../../test/oidc-provider.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';

const PUBLIC_URL = 'http://localhost:3000';

async function signInWithGoogle(t: TestApp) {
  const start = await authRequest(t.app, '/sign-in/social', {
    provider: 'google',
    callbackURL: '/dashboard',
    errorCallbackURL: '/login',
  });
  expect(start.statusCode).toBe(200);
  const stateCookie = cookiesOf(start.headers['set-cookie']);
  const callback = await throughProvider(start.json().url, PUBLIC_URL);
  const finish = await t.app.inject({
    url: callback.pathname + callback.search,
    headers: { cookie: stateCookie },
  });
  const cookie = cookiesOf(finish.headers['set-cookie']);
  return { location: String(finish.headers.location), cookie };
}

describe(`Google sign-in over OpenID Connect (${engine})`, () => {
  let t: TestApp;
  let google: TestOidcProvider;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    google = await startTestOidcProvider({ redirectUri: `${PUBLIC_URL}/api/auth/callback/google` });
    smtp = await startTestSmtpServer();
    t = await buildTestApp({
      env: {
        PUBLIC_URL,
        SMTP_URL: smtp.url,
        GOOGLE_CLIENT_ID: google.clientId,
        GOOGLE_CLIENT_SECRET: google.clientSecret,
        GOOGLE_ISSUER: google.issuer,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await google.close();
    await smtp.close();
  });

  it('creates the account on first sign-in and signs the person in', async () => {
    google.setAccount({
      sub: 'g-100',
      email: 'gina@mail.com',
      email_verified: true,
      name: 'Gina Green',
    });
    const { location, cookie } = await signInWithGoogle(t);
    expect(location).toBe('/dashboard');

    const token = await accessToken(t.app, { email: 'gina@mail.com', cookie });
    const admin = await t.app.inject({ url: '/api/admin/gina@mail.com', headers: bearer(token) });
    expect(admin.json()).toEqual({ admin: false });
    const user = await t.db
      .selectFrom('user')
      .selectAll()
      .where('email', '=', 'gina@mail.com')
      .executeTakeFirstOrThrow();
    expect(user.name).toBe('Gina Green');
    expect(Boolean(user.emailVerified)).toBe(true);
  });

  it('lists no password for an account made with Google, until a reset link sets one', async () => {
    google.setAccount({ sub: 'g-150', email: 'gus@mail.com', email_verified: true, name: 'Gus' });
    const { cookie } = await signInWithGoogle(t);
    const methods = async (session: string) =>
      (
        (
          await t.app.inject({ url: '/api/auth/list-accounts', headers: { cookie: session } })
        ).json() as Array<{ providerId: string }>
      )
        .map((account) => account.providerId)
        .sort();
    expect(await methods(cookie)).toEqual(['google']);
    expect((await signIn(t.app, 'gus@mail.com', 'a-first-password-5')).response.statusCode).toBe(
      401,
    );

    const request = await authRequest(t.app, '/request-password-reset', {
      email: 'gus@mail.com',
      redirectTo: '/reset-password',
    });
    expect(request.statusCode).toBe(200);
    const mail = await smtp.waitForMail((m) => m.envelope.to.includes('gus@mail.com'));
    const link = new URL(/https?:\/\/\S+/.exec(mail.text ?? '')?.[0] ?? '');
    const landing = await t.app.inject(link.pathname + link.search);
    const token = new URL(String(landing.headers.location), PUBLIC_URL).searchParams.get('token');
    const reset = await authRequest(t.app, '/reset-password', {
      token,
      newPassword: 'a-first-password-5',
    });
    expect(reset.statusCode).toBe(200);

    const signedIn = await signIn(t.app, 'gus@mail.com', 'a-first-password-5');
    expect(signedIn.response.statusCode).toBe(200);
    expect(await methods(signedIn.cookie)).toEqual(['credential', 'google']);
  });

  it('never links an unverified local account with the same address', async () => {
    await signUp(t.app, { email: 'hugo@mail.com', verified: false });
    google.setAccount({ sub: 'g-200', email: 'hugo@mail.com', email_verified: true, name: 'Hugo' });
    const { location, cookie } = await signInWithGoogle(t);
    expect(location).toMatch(/^\/login\?error=/);
    expect(cookie).not.toMatch(/session_token=[^;]+/);
    const accounts = await t.db
      .selectFrom('account')
      .innerJoin('user', 'user.id', 'account.userId')
      .select('account.providerId')
      .where('user.email', '=', 'hugo@mail.com')
      .execute();
    expect(accounts.map((a) => a.providerId)).toEqual(['credential']);
  });

  it.each([
    [
      'strips control and text-direction characters and cuts to 100 characters',
      'iris@mail.com',
      `\u202EIris\u0007 ${'Iris'.repeat(40)}\u2069`,
      `Iris ${'Iris'.repeat(40)}`.slice(0, 100),
    ],
    [
      'falls back to the address’s local part when nothing is left',
      'jules.verne@mail.com',
      '\u202E\u2066\u0085',
      'jules.verne',
    ],
  ])('cleans the name Google gives: %s', async (_kind, email, name, stored) => {
    google.setAccount({ sub: `g-${email}`, email, email_verified: true, name });
    const { location } = await signInWithGoogle(t);
    expect(location).toBe('/dashboard');
    const user = await t.db
      .selectFrom('user')
      .select('name')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(user.name).toBe(stored);
  });

  it("tells the app, with the clinic's details, that Google sign-in is offered", async () => {
    const clinic = await t.app.inject('/api/clinic');
    expect(clinic.json()).toMatchObject({ signInWithGoogle: true });
  });

  it('tells the app plainly when Google sign-in is not configured', async () => {
    const plain = await buildTestApp();
    try {
      const clinic = await plain.app.inject('/api/clinic');
      expect(clinic.json()).toMatchObject({ signInWithGoogle: false });
      const response = await authRequest(plain.app, '/sign-in/social', {
        provider: 'google',
        callbackURL: '/',
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().message).toEqual(expect.any(String));
    } finally {
      await plain.close();
    }
  });
});
