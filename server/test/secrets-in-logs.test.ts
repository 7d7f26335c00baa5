import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, type LogRecord, type TestApp } from './helper.js';
import {
  cookiesOf,
  startTestOidcProvider,
  type TestOidcProvider,
  throughProvider,
} from './oidc-provider.js';
import { startTestSmtpServer, type TestSmtpServer } from './smtp-server.js';

/**
 * No secret reaches the log: the flows that carry one in an address (the verification link, the
 * password-reset link and the page it leads to, Google's OAuth callback) are run end to end with
 * the access log on (info), then every captured line is searched for each token, code and state.
 * Mail goes over SMTP, as in production (the local outbox prints links on purpose).
 */

const PUBLIC_URL = 'http://localhost:3000';
const linkIn = (text: string | undefined) => /https?:\/\/\S+/.exec(text ?? '')?.[0] ?? '';

let nextIp = 0;
/** A POST to the auth library, from a client address of its own, as a browser would send it. */
function authPost(t: TestApp, path: string, body: unknown, cookie?: string) {
  nextIp += 1;
  return t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    remoteAddress: `10.9.0.${nextIp}`,
    headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) },
    payload: body as Record<string, unknown>,
  });
}

/** The access log's line for an address that starts with `prefix`. */
function accessLine(logs: LogRecord[], prefix: string): LogRecord | undefined {
  return logs.find(
    (line) =>
      line.msg === 'request completed' &&
      String((line.req as { url?: string } | undefined)?.url).startsWith(prefix),
  );
}

describe(`secrets in the log (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let google: TestOidcProvider;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    google = await startTestOidcProvider({ redirectUri: `${PUBLIC_URL}/api/auth/callback/google` });
    t = await buildTestApp({
      logLevel: 'info',
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
    await t?.close();
    await smtp?.close();
    await google?.close();
  });

  it('redacts verification and reset tokens and OAuth codes and states from every logged line', async () => {
    const secrets: Array<[string, string]> = [];
    const email = `logs-${Date.now()}@mail.com`;

    // Sign-up, then the verification mail's link, followed.
    const signUp = await authPost(t, '/sign-up/email', {
      name: 'Lena Logs',
      email,
      password: 'plaque-free-smile-42',
    });
    expect(signUp.statusCode).toBe(200);
    const verification = await smtp.waitForMail((m) => m.envelope.to.includes(email));
    const verifyLink = new URL(linkIn(verification.text));
    const verifyToken = verifyLink.searchParams.get('token') ?? '';
    expect(verifyLink.pathname).toBe('/api/auth/verify-email');
    secrets.push(['verification token', verifyToken]);
    const verified = await t.app.inject(verifyLink.pathname + verifyLink.search);
    expect(verified.statusCode).toBe(302);

    // A reset requested, its link followed to the app's page, and the password reset.
    smtp.clear();
    const requested = await authPost(t, '/request-password-reset', {
      email,
      redirectTo: '/reset-password',
    });
    expect(requested.statusCode).toBe(200);
    const resetMail = await smtp.waitForMail(
      (m) => m.envelope.to.includes(email) && /password/i.test(m.subject ?? ''),
    );
    const resetLink = new URL(linkIn(resetMail.text));
    expect(resetLink.pathname).toMatch(/^\/api\/auth\/reset-password\/[^/]+$/);
    const resetToken = resetLink.pathname.split('/').at(-1) ?? '';
    secrets.push(['reset token', resetToken]);
    const landing = await t.app.inject(resetLink.pathname + resetLink.search);
    expect(landing.statusCode).toBe(302);
    const page = new URL(String(landing.headers.location), PUBLIC_URL);
    expect(page.searchParams.get('token')).toBe(resetToken);
    await t.app.inject(page.pathname + page.search);
    const reset = await authPost(t, '/reset-password', {
      token: resetToken,
      newPassword: 'fresh-mint-floss-7',
    });
    expect(reset.statusCode).toBe(200);
    const signIn = await authPost(t, '/sign-in/email', {
      email,
      password: 'fresh-mint-floss-7',
    });
    expect(signIn.statusCode).toBe(200);

    // Google sign-in: the provider sends the browser back with a code and the state.
    const start = await authPost(t, '/sign-in/social', {
      provider: 'google',
      callbackURL: '/dashboard',
      errorCallbackURL: '/login',
    });
    expect(start.statusCode).toBe(200);
    const callback = await throughProvider(start.json().url, PUBLIC_URL);
    const code = callback.searchParams.get('code') ?? '';
    const state = callback.searchParams.get('state') ?? '';
    secrets.push(['OAuth code', code], ['OAuth state', state]);
    const finished = await t.app.inject({
      url: callback.pathname + callback.search,
      headers: { cookie: cookiesOf(start.headers['set-cookie']) },
    });
    expect(finished.statusCode).toBe(302);
    expect(String(finished.headers.location)).toBe('/dashboard');
    // The same code and state at the generic OAuth callback's address, as a replay would send.
    await t.app.inject(`/api/auth/oauth2/callback/google?state=${state}&code=${code}&x=1`);

    for (const [name, value] of secrets) expect(value.length, name).toBeGreaterThanOrEqual(16);
    const lines = t.logs.map((line) => JSON.stringify(line));
    expect(lines.length).toBeGreaterThan(10);
    let found = 0;
    for (const [name, value] of secrets) {
      for (const form of new Set([value, encodeURIComponent(value)])) {
        const leaks = lines.filter((line) => line.includes(form));
        found += leaks.length;
        expect.soft(leaks, `${name} in the log`).toEqual([]);
      }
    }
    // biome-ignore lint/suspicious/noConsole: the figure is reported in docs/reliability.md.
    console.log(
      `secrets in the log (${engine}): ${lines.length} lines logged at info, ${secrets.length} secrets searched for (raw and percent-encoded), ${found} lines holding one`,
    );
    // And the flows were logged, addresses and all: without their secrets.
    expect(accessLine(t.logs, '/api/auth/verify-email?token=')?.req).toMatchObject({
      url: expect.stringMatching(/^\/api\/auth\/verify-email\?token=\*\*\*&callbackURL=/),
    });
    expect(accessLine(t.logs, '/api/auth/reset-password/')?.req).toMatchObject({
      url: '/api/auth/reset-password/***?callbackURL=%2Freset-password',
    });
    expect(accessLine(t.logs, '/reset-password?')?.req).toMatchObject({
      url: '/reset-password?token=***',
    });
    expect(accessLine(t.logs, callback.pathname)?.req).toMatchObject({
      url: expect.stringMatching(/[?&]code=\*\*\*/),
    });
    expect(accessLine(t.logs, '/api/auth/oauth2/callback/google')?.req).toMatchObject({
      url: '/api/auth/oauth2/callback/google?state=***&code=***&x=1',
    });
  });
});
