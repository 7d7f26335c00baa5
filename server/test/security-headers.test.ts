import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGE } from '../src/auth/same-origin.js';
import { accessToken, bearer, signUp } from './accounts.js';
import { photoPng, signedUpAdmin, uploadImage } from './admin-fixtures.js';
import { mediumDay } from './dates.js';
import { buildTestApp, engine, type TestApp } from './helper.js';
import { unpaidBooking } from './payment-fixtures.js';

/**
 * The headers that keep a browser safe with the portal: the content security policy, nosniff,
 * the referrer policy, HSTS over HTTPS, the session cookie's flags, the refusal of cross-site
 * state-changing requests, and no caching of answers that carry patients' data.
 */

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
};
const HTTPS_ENV = { PUBLIC_URL: 'https://portal.example', NODE_ENV: 'production' };
const EVIL = 'https://evil.example';

/** Every header value this suite asserts on, counted for docs/reliability.md. */
let checked = 0;
function header(response: LightMyRequestResponse, name: string): string | undefined {
  checked += 1;
  const value = response.headers[name];
  return value === undefined ? undefined : [value].flat().join(', ');
}

/** A content security policy as directive → sources. */
function policyOf(response: LightMyRequestResponse): Map<string, string[]> {
  const csp = header(response, 'content-security-policy');
  expect(csp, `no content security policy on ${response.raw.req.url}`).toBeDefined();
  return new Map(
    String(csp)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [String(name), sources]),
  );
}

function expectStrictPolicy(policy: Map<string, string[]>) {
  const scripts = policy.get('script-src') ?? policy.get('default-src') ?? [];
  expect(scripts).toContain("'self'");
  for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'http:', 'https:']) {
    expect(scripts).not.toContain(unsafe);
  }
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('default-src')).toEqual(["'self'"]);
}

/** Every host a policy lets the page reach. */
const hostsIn = (policy: Map<string, string[]>) =>
  new Set([...policy.values()].flat().filter((source) => /^https?:\/\//.test(source)));

/** A web build of one page, so that the page's own headers can be read. */
function webBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  return dir;
}

function cookieAttributes(setCookie: string) {
  const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
  return {
    name: pair.slice(0, pair.indexOf('=')),
    attributes: attributes.map((attribute) => attribute.toLowerCase()),
  };
}

describe(`security headers and cookies (${engine})`, () => {
  let t: TestApp;
  let stripe: TestApp;
  let https: TestApp;
  let web: string;

  beforeAll(async () => {
    web = webBuild();
    t = await buildTestApp({
      webRoot: web,
      env: { TRUSTED_ORIGINS: 'https://app.clinic.example' },
    });
    stripe = await buildTestApp({ webRoot: web, env: STRIPE_ENV });
    https = await buildTestApp({ webRoot: web, env: HTTPS_ENV });
  });

  afterAll(async () => {
    // biome-ignore lint/suspicious/noConsole: the figures are the point of this suite.
    console.log(`security headers (${engine}): ${checked} header values checked`);
    await t?.close();
    await stripe?.close();
    await https?.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  /** The kinds of answer a browser gets: the page, API JSON, API errors, an auth answer. */
  const answers = (app: TestApp) => [
    app.app.inject('/'),
    app.app.inject('/dashboard'),
    app.app.inject('/api/health'),
    app.app.inject('/api/no-such-route'),
    // Refused by the router itself, before any route: a malformed percent-encoding.
    app.app.inject('/api/booking/%zz'),
    app.app.inject('/api/auth/get-session'),
  ];

  describe('the content security policy', () => {
    it('allows no inline or evaluated script, no plugins, no <base>, no framing', async () => {
      for (const response of await Promise.all(answers(t))) {
        const policy = policyOf(response);
        expectStrictPolicy(policy);
        expect(policy.get('style-src')).toEqual(["'self'"]);
        expect(policy.get('form-action')).toEqual(["'self'"]);
        expect(policy.has('frame-src')).toBe(false);
        expect([...hostsIn(policy)]).toEqual([]);
      }
    });

    it('adds only what Stripe.js needs when Stripe is configured', async () => {
      for (const response of await Promise.all(answers(stripe))) {
        const policy = policyOf(response);
        expectStrictPolicy(policy);
        expect(policy.get('script-src')).toEqual(["'self'", 'https://js.stripe.com']);
        expect(policy.get('frame-src')).toEqual([
          'https://js.stripe.com',
          'https://hooks.stripe.com',
        ]);
        expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.stripe.com']);
        expect(policy.get('style-src')).toEqual(["'self'"]);
        expect([...hostsIn(policy)].sort()).toEqual([
          'https://api.stripe.com',
          'https://hooks.stripe.com',
          'https://js.stripe.com',
        ]);
      }
    });

    it("lets images come from the S3 bucket's public address when it has one", async () => {
      const s3 = await buildTestApp({
        env: {
          S3_BUCKET: 'clinic-photos',
          S3_REGION: 'us-east-1',
          S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
          S3_SECRET_ACCESS_KEY: 'example-secret-access-key',
          S3_PUBLIC_URL: 'https://photos.clinic.example/doctors/',
        },
      });
      try {
        const policy = policyOf(await s3.app.inject('/api/health'));
        expectStrictPolicy(policy);
        expect(policy.get('img-src')).toEqual([
          "'self'",
          'data:',
          'blob:',
          'https://photos.clinic.example',
        ]);
        expect(policy.get('script-src')).toEqual(["'self'"]);
      } finally {
        await s3.close();
      }
    });

    it('upgrades insecure requests over HTTPS', async () => {
      const policy = policyOf(await https.app.inject('/'));
      expectStrictPolicy(policy);
      expect(policy.has('upgrade-insecure-requests')).toBe(true);
      expect(policyOf(await t.app.inject('/')).has('upgrade-insecure-requests')).toBe(false);
    });

    it("keeps the API browser's own policy free of plugins, <base> and framing", async () => {
      const page = await t.app.inject('/api/docs/');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const policy = policyOf(page);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('base-uri')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
      expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
    });
  });

  describe('the other headers', () => {
    it('forbid sniffing and framing and keep the referrer to the origin', async () => {
      const admin = await signedUpAdmin(t.app);
      const upload = await uploadImage(t.app, admin.token, {
        filename: 'a.png',
        contentType: 'image/png',
        data: await photoPng(32, 32),
      });
      const { url } = (upload.json() as { data: { url: string } }).data;
      const image = new URL(url, t.config.publicUrl).pathname;
      for (const response of [...(await Promise.all(answers(t))), await t.app.inject(image)]) {
        expect(header(response, 'x-content-type-options')).toBe('nosniff');
        expect(header(response, 'referrer-policy')).toBe('strict-origin-when-cross-origin');
        expect(header(response, 'x-frame-options')).toBe('DENY');
        expect(header(response, 'cross-origin-opener-policy')).toBe('same-origin');
      }
    });

    it('send HSTS only when the portal is served over HTTPS', async () => {
      for (const response of await Promise.all(answers(t))) {
        expect(header(response, 'strict-transport-security')).toBeUndefined();
      }
      for (const response of await Promise.all(answers(https))) {
        const hsts = header(response, 'strict-transport-security') ?? '';
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
        expect(hsts).toContain('includeSubDomains');
      }
    });
  });

  describe('the session cookie', () => {
    const signUpCookies = async (app: TestApp) => {
      const response = await app.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        remoteAddress: '10.77.0.1',
        headers: { origin: app.config.publicUrl },
        payload: {
          name: 'Cookie Checker',
          email: `cookies${Date.now()}@mail.com`,
          password: 'plaque-free-smile-42',
        },
      });
      expect(response.statusCode).toBe(200);
      const cookies = [response.headers['set-cookie'] ?? []].flat();
      checked += cookies.length;
      expect(cookies.length).toBeGreaterThan(0);
      return cookies.map(cookieAttributes);
    };

    it('is HttpOnly and SameSite=Lax, and not Secure over plain HTTP', async () => {
      const cookies = await signUpCookies(t);
      expect(cookies.map((cookie) => cookie.name)).toContain('better-auth.session_token');
      for (const { attributes } of cookies) {
        expect(attributes).toContain('httponly');
        expect(attributes).toContain('samesite=lax');
        expect(attributes).toContain('path=/');
        expect(attributes).not.toContain('secure');
      }
    });

    it('is Secure, with the __Secure- prefix, when PUBLIC_URL is https', async () => {
      const cookies = await signUpCookies(https);
      expect(cookies.map((cookie) => cookie.name)).toContain('__Secure-better-auth.session_token');
      for (const { name, attributes } of cookies) {
        expect(name.startsWith('__Secure-')).toBe(true);
        expect(attributes).toContain('httponly');
        expect(attributes).toContain('samesite=lax');
        expect(attributes).toContain('secure');
      }
    });
  });

  describe('cross-site requests that change state', () => {
    it('are refused by the sign-in, sign-up and sign-out endpoints', async () => {
      const account = await signUp(t.app);
      const post = (url: string, headers: Record<string, string>, payload: object) =>
        t.app.inject({ method: 'POST', url, remoteAddress: '10.77.1.1', headers, payload });
      const signIn = await post(
        '/api/auth/sign-in/email',
        { origin: EVIL, cookie: account.cookie },
        { email: account.email, password: account.password },
      );
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json()).toMatchObject({ message: expect.stringMatching(/origin/i) });

      const signUpThere = await post(
        '/api/auth/sign-up/email',
        { origin: EVIL },
        { name: 'Lured', email: `lured${Date.now()}@mail.com`, password: 'plaque-free-smile-42' },
      );
      expect(signUpThere.statusCode).toBe(403);

      // Cross-site fetch metadata without an Origin: refused too.
      const noOrigin = await post(
        '/api/auth/sign-in/email',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
        { email: account.email, password: account.password },
      );
      expect(noOrigin.statusCode).toBe(403);

      // A login form posted from another site is not even parsed.
      const form = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: '10.77.1.2',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL },
        payload: `email=${encodeURIComponent(account.email)}&password=${account.password}`,
      });
      expect(form.statusCode).toBe(415);

      const signOut = await post(
        '/api/auth/sign-out',
        { origin: EVIL, cookie: account.cookie },
        {},
      );
      expect(signOut.statusCode).toBe(403);
      // The session outlived the attempt.
      expect(await accessToken(t.app, account)).toEqual(expect.any(String));
    });

    it('are refused by the cookie-to-token exchange (PUT /api/user/{email})', async () => {
      const account = await signUp(t.app);
      const exchange = (headers: Record<string, string>) =>
        t.app.inject({
          method: 'PUT',
          url: `/api/user/${account.email}`,
          headers: { cookie: account.cookie, ...headers },
          payload: { email: account.email },
        });
      const refusals: Array<Record<string, string>> = [
        { origin: EVIL },
        { origin: 'null' },
        { origin: 'http://localhost:3000.evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: t.config.publicUrl, 'sec-fetch-site': 'cross-site' },
      ];
      for (const refused of refusals) {
        const response = await exchange(refused);
        expect(response.statusCode, JSON.stringify(refused)).toBe(403);
        expect(response.json()).toEqual({
          statusCode: 403,
          error: 'Forbidden',
          message: CROSS_SITE_MESSAGE,
        });
        expect(response.body).not.toContain('token":');
      }
      const allowances: Array<Record<string, string>> = [
        { origin: t.config.publicUrl },
        { origin: 'https://app.clinic.example' },
        { origin: t.config.publicUrl, 'sec-fetch-site': 'same-origin' },
        {}, // not a browser: no Origin, no fetch metadata
      ];
      for (const allowed of allowances) {
        const response = await exchange(allowed);
        expect(response.statusCode, JSON.stringify(allowed)).toBe(200);
      }
    });
  });

  describe("Vite's dev server (npm run dev)", () => {
    it('may exchange the cookie for a token in development, and nowhere else', async () => {
      const dev = await buildTestApp({ env: { NODE_ENV: 'development' } });
      try {
        for (const [app, status] of [
          [dev, 200],
          [t, 403],
        ] as const) {
          const account = await signUp(app.app);
          const response = await app.app.inject({
            method: 'PUT',
            url: `/api/user/${account.email}`,
            headers: { cookie: account.cookie, origin: 'http://localhost:5173' },
            payload: { email: account.email },
          });
          expect(response.statusCode, app.config.env).toBe(status);
        }
      } finally {
        await dev.close();
      }
    });
  });

  describe('answers that carry personal data', () => {
    it('are never stored by browsers or shared caches', async () => {
      const account = await signUp(t.app, { name: 'Cache Patient' });
      const token = await accessToken(t.app, account);
      const admin = await signedUpAdmin(t.app);
      const booking = await unpaidBooking(t, {
        id: account.id,
        email: account.email,
        name: 'Cache Patient',
        token,
      });
      const calls = [
        { method: 'GET', url: '/api/auth/get-session', headers: { cookie: account.cookie } },
        { method: 'GET', url: `/api/admin/${account.email}`, headers: bearer(token) },
        { method: 'GET', url: `/api/booking?patientMail=${account.email}`, headers: bearer(token) },
        { method: 'GET', url: `/api/booking/${booking.id}`, headers: bearer(token) },
        {
          method: 'POST',
          url: '/api/booking',
          headers: bearer(token),
          payload: {
            treatmentId: 'oral-surgery',
            date: mediumDay(459),
            slot: '10:00 AM - 11:30 AM',
            phone: '+1 555 123 4567',
            age: 30,
          },
        },
        {
          method: 'POST',
          url: '/api/create-payment-intent',
          headers: bearer(token),
          payload: { bookingId: booking.id },
        },
        { method: 'GET', url: '/api/users', headers: bearer(admin.token) },
        { method: 'GET', url: '/api/doctor', headers: bearer(admin.token) },
        {
          method: 'PUT',
          url: `/api/user/${account.email}`,
          headers: { cookie: account.cookie, origin: t.config.publicUrl },
        },
      ] as const;
      for (const call of calls) {
        const response = await t.app.inject(call);
        expect(response.statusCode, `${call.method} ${call.url}`).toBeLessThan(300);
        expect(header(response, 'cache-control'), `${call.method} ${call.url}`).toMatch(
          /no-store|private/,
        );
      }
    });
  });
});
