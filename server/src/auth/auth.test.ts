import { messages, VERIFICATION_LANDING } from '@doctors-portal/contract';
import { getMigrations } from 'better-auth/db/migration';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessToken, authRequest, bearer, signIn, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { KEPT_MS } from '../http/kept-between-writes.js';
import { LOGIN_FAILURES } from './login-failures.js';

const linkIn = (text: string | undefined) => /https?:\/\/\S+/.exec(text ?? '')?.[0] ?? '';

describe(`accounts (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, ADMIN_EMAILS: 'head@clinic.com' } });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => smtp.clear());

  it("leaves nothing of the auth library's schema missing", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(t.app.auth.options);
    expect(toBeCreated).toEqual([]);
    expect(toBeAdded).toEqual([]);
  });

  it.each([
    '/send-verification-email',
    '/sign-up/email',
    '/sign-in/email',
    '/update-user',
    '/request-password-reset',
  ])('refuses JSON that is not an object on %s with a 400 that says so', async (path) => {
    for (const [index, payload] of ['" "', '[]', 'null', '7'].entries()) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/auth${path}?callbackURL=`,
        // An address of its own each: two of these paths allow three requests a minute.
        remoteAddress: `10.77.${index}.1`,
        headers: { origin: t.app.config.publicUrl, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, `${payload}: ${response.body}`).toBe(400);
      expect(response.json().message).toBe('The request body must be a JSON object.');
    }
  });

  describe('sign-up', () => {
    it.each([
      [{ name: '', email: 'a@mail.com', password: 'brush-twice-daily' }, messages.nameRequired],
      [{ name: 'Ana', email: '', password: 'brush-twice-daily' }, messages.emailRequired],
      [
        { name: 'Ana', email: 'ana.mail.com', password: 'brush-twice-daily' },
        messages.emailInvalid,
      ],
      [{ name: 'Ana', email: 'a@mail.com', password: '' }, messages.passwordRequired],
      [{ name: 'Ana', email: 'a@mail.com', password: '12345' }, messages.passwordTooShort],
      [{ name: 'Ana', email: 'a@mail.com', password: 'Password1' }, 'one of the most common'],
    ])('refuses %o with %j', async (body, message) => {
      const response = await authRequest(t.app, '/sign-up/email', body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(message);
    });

    it('sends a verification mail whose link verifies the address', async () => {
      const account = await signUp(t.app, { name: 'Ana <b>Lee</b>' });
      const mail = await smtp.waitForMail((m) => m.envelope.to.includes(account.email));
      expect(mail.subject).toMatch(/verify/i);
      expect(mail.html).not.toContain('<b>Lee</b>');
      const link = new URL(linkIn(mail.text));
      const visit = await t.app.inject(link.pathname + link.search);
      expect(visit.statusCode).toBe(302);
      // The app's page that says the address is verified.
      expect(visit.headers.location).toBe(VERIFICATION_LANDING);
      const user = await t.db
        .selectFrom('user')
        .select('emailVerified')
        .where('email', '=', account.email)
        .executeTakeFirstOrThrow();
      expect(Boolean(user.emailVerified)).toBe(true);
    });

    it('lands a link asked for again on the same page, whatever the app asked', async () => {
      const account = await signUp(t.app, { verified: false });
      await smtp.waitForMail((m) => m.envelope.to.includes(account.email));
      smtp.clear();
      const again = await authRequest(t.app, '/send-verification-email', {
        email: account.email,
        callbackURL: '/elsewhere',
      });
      expect(again.statusCode).toBe(200);
      const mail = await smtp.waitForMail((m) => m.envelope.to.includes(account.email));
      const link = new URL(linkIn(mail.text));
      const visit = await t.app.inject(link.pathname + link.search);
      expect(visit.headers.location).toBe(VERIFICATION_LANDING);
    });

    it('lands a broken link on the same page with the reason, verifying nothing', async () => {
      const account = await signUp(t.app, { verified: false });
      const mail = await smtp.waitForMail((m) => m.envelope.to.includes(account.email));
      const link = new URL(linkIn(mail.text));
      link.searchParams.set('token', `${link.searchParams.get('token')}x`);
      const visit = await t.app.inject(link.pathname + link.search);
      expect(visit.statusCode).toBe(302);
      expect(visit.headers.location).toBe(`${VERIFICATION_LANDING}&error=INVALID_TOKEN`);
      const user = await t.db
        .selectFrom('user')
        .select('emailVerified')
        .where('email', '=', account.email)
        .executeTakeFirstOrThrow();
      expect(Boolean(user.emailVerified)).toBe(false);
    });
  });

  describe('access tokens', () => {
    it('are issued only for the signed-in user’s own email', async () => {
      const account = await signUp(t.app);
      const other = await t.app.inject({
        method: 'PUT',
        url: '/api/user/someone-else@mail.com',
        headers: { cookie: account.cookie, origin: t.config.publicUrl },
        payload: {},
      });
      expect(other.statusCode).toBe(403);
      const anonymous = await t.app.inject({
        method: 'PUT',
        url: `/api/user/${account.email}`,
        payload: {},
      });
      expect(anonymous.statusCode).toBe(401);
    });

    it('answer the admin check for the caller only', async () => {
      const account = await signUp(t.app);
      const token = await accessToken(t.app, account);
      const own = await t.app.inject({
        url: `/api/admin/${account.email}`,
        headers: bearer(token),
      });
      expect(own.json()).toEqual({ admin: false });
      const other = await t.app.inject({
        url: '/api/admin/head@clinic.com',
        headers: bearer(token),
      });
      expect(other.statusCode).toBe(403);
      const anonymous = await t.app.inject({ url: `/api/admin/${account.email}` });
      expect(anonymous.statusCode).toBe(401);
    });

    it('are read under the scheme’s name however it is spelt, and only under it', async () => {
      const account = await signUp(t.app);
      const token = await accessToken(t.app, account);
      const asked = (authorization: string) =>
        t.app.inject({ url: `/api/admin/${account.email}`, headers: { authorization } });
      for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
        expect((await asked(`${scheme} ${token}`)).statusCode, scheme).toBe(200);
      }
      for (const other of [`Basic ${token}`, `Bearer${token}`, token]) {
        expect((await asked(other)).statusCode, other).toBe(401);
      }
    });

    it('stop working at once when the user logs out', async () => {
      const account = await signUp(t.app);
      const token = await accessToken(t.app, account);
      expect(
        (await t.app.inject({ url: `/api/admin/${account.email}`, headers: bearer(token) }))
          .statusCode,
      ).toBe(200);

      const out = await authRequest(t.app, '/sign-out', {}, { cookie: account.cookie });
      expect(out.statusCode).toBe(200);
      expect(
        (await t.app.inject({ url: `/api/admin/${account.email}`, headers: bearer(token) }))
          .statusCode,
      ).toBe(401);
    });

    it('stop working within a second when another instance ends the session, at once after a write here', async () => {
      const asked = (token: string, email: string) =>
        t.app.inject({ url: `/api/admin/${email}`, headers: bearer(token) });
      const signedOutElsewhere = (account: { id: string }) =>
        t.db.deleteFrom('session').where('userId', '=', account.id).execute();
      const [first, second] = [await signUp(t.app), await signUp(t.app)];
      const [firstToken, secondToken] = [
        await accessToken(t.app, first),
        await accessToken(t.app, second),
      ];
      expect((await asked(firstToken, first.email)).statusCode).toBe(200);
      await signedOutElsewhere(first);
      // Still the caller this app saw a moment ago (decision 039)...
      expect((await asked(firstToken, first.email)).statusCode).toBe(200);
      // ...until any request through it may have written,
      await t.app.inject({ method: 'POST', url: '/api/contact', payload: {} });
      expect((await asked(firstToken, first.email)).statusCode).toBe(401);

      expect((await asked(secondToken, second.email)).statusCode).toBe(200);
      await signedOutElsewhere(second);
      expect((await asked(secondToken, second.email)).statusCode).toBe(200);
      // or a second has passed.
      await new Promise((resolve) => setTimeout(resolve, KEPT_MS));
      expect((await asked(secondToken, second.email)).statusCode).toBe(401);
    });

    it('refuse a forged or tampered token', async () => {
      const account = await signUp(t.app);
      const token = await accessToken(t.app, account);
      const [header, payload] = token.split('.');
      for (const forged of [`${header}.${payload}.bad-signature`, 'not-a-token', `${token}x`]) {
        const response = await t.app.inject({
          url: `/api/admin/${account.email}`,
          headers: bearer(forged),
        });
        expect(response.statusCode).toBe(401);
      }
    });
  });

  describe('ADMIN_EMAILS', () => {
    it('makes a listed address an admin only once it is verified', async () => {
      const account = await signUp(t.app, { email: 'head@clinic.com', verified: false });
      let token = await accessToken(t.app, account);
      expect(
        (await t.app.inject({ url: '/api/admin/head@clinic.com', headers: bearer(token) })).json(),
      ).toEqual({ admin: false });

      const mail = await smtp.waitForMail((m) => m.envelope.to.includes('head@clinic.com'));
      const link = new URL(linkIn(mail.text));
      await t.app.inject(link.pathname + link.search);
      token = await accessToken(t.app, account);
      expect(
        (await t.app.inject({ url: '/api/admin/head@clinic.com', headers: bearer(token) })).json(),
      ).toEqual({ admin: true });
    });
  });

  describe('password reset', () => {
    it('mails a single-use link; the new password works and the old one stops', async () => {
      const account = await signUp(t.app);
      const request = await authRequest(t.app, '/request-password-reset', {
        email: account.email,
        redirectTo: '/reset-password',
      });
      expect(request.statusCode).toBe(200);
      const mail = await smtp.waitForMail(
        (m) => m.envelope.to.includes(account.email) && /password/i.test(m.subject ?? ''),
      );
      expect(mail.subject).toMatch(/password/i);
      const link = new URL(linkIn(mail.text));
      const landing = await t.app.inject(link.pathname + link.search);
      const token = new URL(String(landing.headers.location), t.config.publicUrl).searchParams.get(
        'token',
      );
      expect(token).toBeTruthy();

      const reset = await authRequest(t.app, '/reset-password', {
        token,
        newPassword: 'fresh-mint-floss-7',
      });
      expect(reset.statusCode).toBe(200);
      expect((await signIn(t.app, account.email, account.password)).response.statusCode).toBe(401);
      expect((await signIn(t.app, account.email, 'fresh-mint-floss-7')).response.statusCode).toBe(
        200,
      );
      const again = await authRequest(t.app, '/reset-password', {
        token,
        newPassword: 'another-one-9',
      });
      expect(again.statusCode).toBe(400);
    });

    it('revokes the sessions the account had', async () => {
      const account = await signUp(t.app);
      const apiToken = await accessToken(t.app, account);
      await authRequest(t.app, '/request-password-reset', {
        email: account.email,
        redirectTo: '/reset-password',
      });
      const mail = await smtp.waitForMail(
        (m) => m.envelope.to.includes(account.email) && /password/i.test(m.subject ?? ''),
      );
      const link = new URL(linkIn(mail.text));
      const landing = await t.app.inject(link.pathname + link.search);
      const token = new URL(String(landing.headers.location), t.config.publicUrl).searchParams.get(
        'token',
      );
      await authRequest(t.app, '/reset-password', { token, newPassword: 'fresh-mint-floss-8' });
      expect(
        (await t.app.inject({ url: `/api/admin/${account.email}`, headers: bearer(apiToken) }))
          .statusCode,
      ).toBe(401);
    });

    it('answers the same for known and unknown addresses', async () => {
      const account = await signUp(t.app);
      const known = await authRequest(t.app, '/request-password-reset', {
        email: account.email,
        redirectTo: '/reset-password',
      });
      const unknown = await authRequest(t.app, '/request-password-reset', {
        email: 'nobody-here@mail.com',
        redirectTo: '/reset-password',
      });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
    });
  });

  describe('signing out everywhere else', () => {
    it("ends the other sessions and their access tokens at once, and keeps this one's", async () => {
      const account = await signUp(t.app);
      const elsewhere = await signIn(t.app, account.email, account.password);
      const here = { email: account.email, cookie: account.cookie };
      const hereToken = await accessToken(t.app, here);
      const elsewhereToken = await accessToken(t.app, { ...here, cookie: elsewhere.cookie });
      const sessions = (cookie: string) =>
        t.app.inject({ url: '/api/auth/list-sessions', headers: { cookie } });
      expect((await sessions(account.cookie)).json()).toHaveLength(2);

      const revoke = await authRequest(
        t.app,
        '/revoke-other-sessions',
        {},
        { cookie: account.cookie },
      );
      expect(revoke.statusCode).toBe(200);
      const asAdminCheck = (token: string) =>
        t.app.inject({ url: `/api/admin/${account.email}`, headers: bearer(token) });
      expect((await asAdminCheck(elsewhereToken)).statusCode).toBe(401);
      expect((await asAdminCheck(hereToken)).statusCode).toBe(200);
      expect((await sessions(account.cookie)).json()).toHaveLength(1);
      expect((await sessions(elsewhere.cookie)).statusCode).toBe(401);
    });
  });

  describe('failed logins', () => {
    it('are throttled per account with a clear 429, and a success clears the count', async () => {
      const account = await signUp(t.app);
      for (let attempt = 0; attempt < LOGIN_FAILURES.max; attempt++) {
        const { response } = await signIn(t.app, account.email, `wrong-password-${attempt}`);
        expect(response.statusCode).toBe(401);
      }
      const blocked = await signIn(t.app, account.email, account.password);
      expect(blocked.response.statusCode).toBe(429);
      expect(blocked.response.json().message).toMatch(/Too many failed sign-ins for this account/);
      expect(Number(blocked.response.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(blocked.response.headers['retry-after'])).toBeLessThanOrEqual(
        LOGIN_FAILURES.window,
      );

      // Another account from the same client is not locked by it.
      const other = await signUp(t.app);
      expect((await signIn(t.app, other.email, other.password)).response.statusCode).toBe(200);
    });
  });

  describe('failed logins in JSON that starts with a byte order mark', () => {
    it('are counted and paused as any others: the library reads such JSON all the same', async () => {
      const account = await signUp(t.app);
      const attempt = (password: string, index: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: `10.80.${index}.1`,
          headers: { origin: t.app.config.publicUrl, 'content-type': 'application/json' },
          payload: `\uFEFF${JSON.stringify({ email: account.email, password })}`,
        });
      for (let index = 0; index < LOGIN_FAILURES.max; index++) {
        expect((await attempt(`wrong-password-${index}`, index)).statusCode).toBe(401);
      }
      expect((await attempt(account.password, 100)).statusCode).toBe(429);
      expect((await signIn(t.app, account.email, account.password)).response.statusCode).toBe(429);
    });
  });

  describe('failed logins sent all at once', () => {
    it('check no more passwords than the lockout allows, from however many clients', async () => {
      const account = await signUp(t.app);
      const attempts = await Promise.all(
        Array.from({ length: 4 * LOGIN_FAILURES.max }, (_, attempt) =>
          signIn(t.app, account.email, `wrong-password-${attempt}`, `10.79.${attempt}.1`).then(
            ({ response }) => response.statusCode,
          ),
        ),
      );
      expect(attempts.filter((status) => status === 401).length).toBeLessThanOrEqual(
        LOGIN_FAILURES.max,
      );
      expect(attempts.every((status) => status === 401 || status === 429)).toBe(true);
      expect((await signIn(t.app, account.email, account.password)).response.statusCode).toBe(429);
    });
  });

  describe('wrong passwords elsewhere', () => {
    it('count against the account when changing the password, under the same lockout as sign-in', async () => {
      const account = await signUp(t.app);
      const change = (currentPassword: string) =>
        authRequest(
          t.app,
          '/change-password',
          { currentPassword, newPassword: 'a-new-long-passphrase-7' },
          { cookie: account.cookie },
        );
      for (let attempt = 0; attempt < LOGIN_FAILURES.max; attempt++) {
        expect((await change(`wrong-password-${attempt}`)).statusCode).toBe(400);
      }
      const blocked = await change(account.password);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().message).toMatch(/^Too many wrong passwords for this account/);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      // One count: signing in is paused too.
      expect((await signIn(t.app, account.email, account.password)).response.statusCode).toBe(429);
    });

    it('do not include changes refused before the current password was checked', async () => {
      const account = await signUp(t.app);
      for (let attempt = 0; attempt <= LOGIN_FAILURES.max; attempt++) {
        const refused = await authRequest(
          t.app,
          '/change-password',
          { currentPassword: account.password, newPassword: 'password123' },
          { cookie: account.cookie },
        );
        expect(refused.statusCode).toBe(400);
      }
      expect((await signIn(t.app, account.email, account.password)).response.statusCode).toBe(200);
    });

    it('are not checked by the library’s own password oracle, which the portal does not serve', async () => {
      const account = await signUp(t.app);
      const answer = await authRequest(
        t.app,
        '/verify-password',
        { password: account.password },
        { cookie: account.cookie },
      );
      expect(answer.statusCode).toBe(404);
    });
  });

  describe("the sign-in service's limits per address", () => {
    it('answer past the limit with 429, when to try again and the same error shape as the API', async () => {
      const ip = '10.99.0.7';
      const ask = () =>
        authRequest(
          t.app,
          '/request-password-reset',
          { email: 'someone@mail.com', redirectTo: '/reset-password' },
          { ip },
        );
      for (let attempt = 0; attempt < 3; attempt++) expect((await ask()).statusCode).toBe(200);
      const refused = await ask();
      expect(refused.statusCode).toBe(429);
      const seconds = Number(refused.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(refused.json()).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Too many requests from this address. Please try again in 1 minute.',
      });
    });
  });
});
