import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Account, authRequest, signIn, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { connectTestRedis, REDIS_REQUIRED, TEST_REDIS_URL } from '../../test/redis.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { LOGIN_FAILURES } from './login-failures.js';

/**
 * A password reset ends the sign-in lockout: the lockout message tells the patient to reset
 * their password, so a successful reset must let them in at once, with either counter store.
 */

/** The prefix the portal gives its rate-limit keys in Redis (rate-limit-store.ts). */
const REDIS_PREFIX = 'portal:rate:';

const linkIn = (text: string | undefined) => /https?:\/\/\S+/.exec(text ?? '')?.[0] ?? '';

/** Addresses of this file's own, so that its Redis keys can be found and removed. */
let lastOctet = 0;
const clientIp = () => {
  lastOctet += 1;
  return `10.77.${Math.floor(lastOctet / 250) % 250}.${(lastOctet % 250) + 1}`;
};

async function lockOut(t: TestApp, account: Account) {
  for (let attempt = 0; attempt < LOGIN_FAILURES.max; attempt++) {
    const { response } = await signIn(t.app, account.email, `wrong-${attempt}`, clientIp());
    expect(response.statusCode).toBe(401);
  }
  const locked = await signIn(t.app, account.email, account.password, clientIp());
  expect(locked.response.statusCode).toBe(429);
  expect(locked.response.json().message).toMatch(/or reset your password/);
}

/** Asks for a reset mail and follows its link as the browser does: the reset token. */
async function resetToken(t: TestApp, smtp: TestSmtpServer, account: Account) {
  smtp.clear();
  const request = await authRequest(
    t.app,
    '/request-password-reset',
    { email: account.email, redirectTo: '/reset-password' },
    { ip: clientIp() },
  );
  expect(request.statusCode).toBe(200);
  const mail = await smtp.waitForMail(
    (m) => m.envelope.to.includes(account.email) && /password/i.test(m.subject ?? ''),
  );
  const link = new URL(linkIn(mail.text));
  const landing = await t.app.inject(link.pathname + link.search);
  const token = new URL(String(landing.headers.location), t.config.publicUrl).searchParams.get(
    'token',
  );
  expect(token).toBeTruthy();
  return token as string;
}

const setPassword = (t: TestApp, token: string, password: string) =>
  authRequest(t.app, '/reset-password', { token, newPassword: password }, { ip: clientIp() });

/** Asks for a reset mail, follows its link as the browser does, and sets `password`. */
async function resetThroughMail(
  t: TestApp,
  smtp: TestSmtpServer,
  account: Account,
  password: string,
) {
  const reset = await setPassword(t, await resetToken(t, smtp, account), password);
  expect(reset.statusCode).toBe(200);
}

function lockoutSuite(store: 'database' | 'redis') {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let redis: Redis | null = null;
  let unreachable = '';
  const emails: string[] = [];

  beforeAll(async () => {
    if (store === 'redis') {
      const connected = await connectTestRedis();
      if (typeof connected === 'string') {
        unreachable = connected;
        if (REDIS_REQUIRED)
          throw new Error(`${unreachable}: CI=true requires it; set TEST_REDIS_URL`);
        return;
      }
      redis = connected;
    }
    smtp = await startTestSmtpServer();
    t = await buildTestApp({
      env: { SMTP_URL: smtp.url, ...(store === 'redis' ? { REDIS_URL: TEST_REDIS_URL } : {}) },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    if (redis) {
      const keys = [
        ...emails.map((email) => `${REDIS_PREFIX}login-failures:${email}`),
        ...(await redis.keys(`${REDIS_PREFIX}*10.77.*`)),
      ];
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
  beforeEach((context) => {
    if (store === 'redis' && !redis) context.skip(unreachable);
    smtp.clear();
  });

  it('a password reset ends the sign-in lockout: the new password signs in at once', async () => {
    const account = await signUp(t.app, { email: `locked-${store}-${Date.now()}@mail.com` });
    emails.push(account.email);
    await lockOut(t, account);

    await resetThroughMail(t, smtp, account, 'fresh-mint-floss-7');

    const after = await signIn(t.app, account.email, 'fresh-mint-floss-7', clientIp());
    expect(after.response.statusCode).toBe(200);
  });

  it("a reset ends the account's other reset links: an older mail cannot set the password again", async () => {
    const account = await signUp(t.app, { email: `two-links-${store}-${Date.now()}@mail.com` });
    emails.push(account.email);
    const older = await resetToken(t, smtp, account);
    const newer = await resetToken(t, smtp, account);
    expect(newer).not.toBe(older);
    expect((await setPassword(t, newer, 'fresh-mint-floss-8')).statusCode).toBe(200);
    const stale = await setPassword(t, older, 'stolen-floss-9');
    expect(stale.statusCode).toBe(400);
    expect(
      (await signIn(t.app, account.email, 'fresh-mint-floss-8', clientIp())).response.statusCode,
    ).toBe(200);
  });

  it('a reset request alone, without a new password, keeps the lockout', async () => {
    const account = await signUp(t.app, { email: `still-locked-${store}-${Date.now()}@mail.com` });
    emails.push(account.email);
    await lockOut(t, account);
    const request = await authRequest(
      t.app,
      '/request-password-reset',
      { email: account.email, redirectTo: '/reset-password' },
      { ip: clientIp() },
    );
    expect(request.statusCode).toBe(200);
    const still = await signIn(t.app, account.email, account.password, clientIp());
    expect(still.response.statusCode).toBe(429);
  });
}

describe(`a password reset ends the sign-in lockout, counters in the database (${engine})`, () => {
  lockoutSuite('database');
});

describe(`a password reset ends the sign-in lockout, counters in Redis (${engine})`, () => {
  lockoutSuite('redis');
});
