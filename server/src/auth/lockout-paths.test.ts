import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { LOGIN_FAILURES } from './login-failures.js';

/**
 * The per-account lockout over real HTTP: `inject` resolves a request's address as a browser
 * would (no fragment, `\` read as `/`), but a hand-made request reaches the server as it was
 * typed, and the auth library, handed a URL of it, reads it as the same endpoint.
 */
describe(`the sign-in lockout, whatever the spelling of the address (${engine})`, () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // Each request names a client address of its own, so the library's limits per address stay out.
    t = await buildTestApp({ env: { TRUST_PROXY: 'true' } });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  });
  afterAll(async () => t?.close());

  let client = 0;
  /** A POST sent with its request target byte for byte as given; the answer's status. */
  function post(target: string, body: unknown, cookie?: string): Promise<number> {
    client += 1;
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: target,
          headers: {
            origin: t.config.publicUrl,
            'x-forwarded-for': `10.81.${Math.floor(client / 250)}.${(client % 250) + 1}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...(cookie ? { cookie } : {}),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  it('counts wrong passwords sent to sign-in under another spelling, and pauses them all', async () => {
    const account = await signUp(t.app);
    const spellings = [
      '/api/auth/sign-in/email#again',
      '/api/auth/sign-in/email#',
      '/api/auth/sign-in\\email',
    ];
    for (let index = 0; index < LOGIN_FAILURES.max; index++) {
      const target = spellings[index % spellings.length] as string;
      const wrong = await post(target, { email: account.email, password: `wrong-${index}` });
      expect(wrong, target).toBe(401);
    }
    for (const target of [...spellings, '/api/auth/sign-in/email']) {
      expect(await post(target, { email: account.email, password: account.password }), target).toBe(
        429,
      );
    }
  });

  it('counts wrong current passwords sent to change-password under another spelling', async () => {
    const account = await signUp(t.app);
    const change = (target: string, currentPassword: string) =>
      post(target, { currentPassword, newPassword: 'a-new-long-passphrase-7' }, account.cookie);
    for (let index = 0; index < LOGIN_FAILURES.max; index++) {
      const target =
        index % 2 === 0 ? '/api/auth/change-password#again' : '/api/auth/change-password#';
      expect(await change(target, `wrong-password-${index}`), target).toBe(400);
    }
    expect(await change('/api/auth/change-password', account.password)).toBe(429);
  });
});
