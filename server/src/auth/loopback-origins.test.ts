import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authRequest, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { loadConfig } from '../config/env.js';
import { trustedOriginsOf } from './same-origin.js';

/**
 * Opening the portal at http://127.0.0.1:3000 instead of http://localhost:3000 works: with no
 * PUBLIC_URL, every loopback spelling of the portal's port is the portal's own origin.
 */

const LOOPBACKS = ['http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000'];

let client = 0;
const signUpFrom = (t: TestApp, origin: string, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    // A client address of its own each time: sign-up is limited per client.
    remoteAddress: `10.88.0.${++client}`,
    headers: { origin, 'sec-fetch-site': 'same-origin' },
    payload: { name: 'Lou Loopback', email, password: 'brush-twice-daily' },
  });

const tokenFrom = (t: TestApp, origin: string, account: { email: string; cookie: string }) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/user/${account.email}`,
    headers: { origin, cookie: account.cookie, 'sec-fetch-site': 'same-origin' },
    payload: { email: account.email },
  });

describe(`the portal opened at any loopback address, with no PUBLIC_URL (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it.each(LOOPBACKS)('signs up from %s (the auth library’s origin check)', async (origin) => {
    const response = await signUpFrom(t, origin, `lou-${LOOPBACKS.indexOf(origin)}@mail.com`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeDefined();
  });

  it.each(LOOPBACKS)('issues an access token to a page at %s (sameOriginOnly)', async (origin) => {
    const account = await signUp(t.app);
    const response = await tokenFrom(t, origin, account);
    expect(response.statusCode).toBe(200);
    expect(response.json().token).toEqual(expect.any(String));
  });

  it.each(['http://127.0.0.1:3001', 'http://127.0.0.2:3000', 'https://127.0.0.1:3000'])(
    'still refuses %s, another origin',
    async (origin) => {
      expect((await signUpFrom(t, origin, `other-${Date.now()}@mail.com`)).statusCode).toBe(403);
      const account = await signUp(t.app);
      expect((await tokenFrom(t, origin, account)).statusCode).toBe(403);
    },
  );
});

describe(`a portal with a public PUBLIC_URL (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ env: { PUBLIC_URL: 'https://clinic.example' } });
  });
  afterAll(() => t.close());

  it('trusts its public origin only, not loopback addresses', async () => {
    const from127 = await signUpFrom(t, 'http://127.0.0.1:3000', 'pub-1@mail.com');
    expect(from127.statusCode).toBe(403);
    const account = await authRequest(t.app, '/sign-up/email', {
      name: 'Pia Public',
      email: 'pub-2@mail.com',
      password: 'brush-twice-daily',
    });
    expect(account.statusCode).toBe(200);
  });
});

describe('trustedOriginsOf', () => {
  it('names every loopback spelling of the port when PUBLIC_URL is unset', () => {
    expect(trustedOriginsOf(loadConfig({ NODE_ENV: 'production', PORT: '4100' }))).toEqual([
      'http://localhost:4100',
      'http://127.0.0.1:4100',
      'http://[::1]:4100',
    ]);
  });

  it('names only PUBLIC_URL (and TRUSTED_ORIGINS) when PUBLIC_URL is a public address', () => {
    expect(
      trustedOriginsOf(
        loadConfig({
          NODE_ENV: 'production',
          PUBLIC_URL: 'https://clinic.example',
          TRUSTED_ORIGINS: 'https://admin.clinic.example',
        }),
      ),
    ).toEqual(['https://clinic.example', 'https://admin.clinic.example']);
  });
});
