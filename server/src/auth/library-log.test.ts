import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextClientIp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { libraryLogLevel } from './library-log.js';

describe('the level of a Better Auth line', () => {
  it('makes a refusal of the caller’s own doing a warning', () => {
    expect(libraryLogLevel('error', 'Invalid redirectURL: https://evil.example/')).toBe('warn');
    expect(libraryLogLevel('error', 'Failed to parse state')).toBe('warn');
  });

  it('keeps any other error an error, and any other level as it is', () => {
    expect(libraryLogLevel('error', 'Failed to create session')).toBe('error');
    expect(libraryLogLevel('error', 'INTERNAL_SERVER_ERROR')).toBe('error');
    expect(libraryLogLevel('info', 'Invalid origin: https://evil.example')).toBe('info');
  });
});

describe(`requests anyone can send leave no error in the log (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const json = (url: string, payload: Record<string, unknown>): InjectOptions => ({
    method: 'POST',
    url,
    headers: { origin: t.config.publicUrl },
    payload,
  });

  it.each([
    [
      'a reset asked for with a redirect to another site',
      () =>
        json('/api/auth/request-password-reset', {
          email: 'someone@example.com',
          redirectTo: 'https://evil.example/',
        }),
      403,
      'auth: Invalid redirectURL: https://evil.example/',
    ],
    [
      'a sign-in with a provider the portal does not have',
      () => json('/api/auth/sign-in/social', { provider: 'evil' }),
      404,
      'auth: Provider not found. Make sure to add the provider in your auth config',
    ],
    [
      'a provider’s callback with a forged state',
      (): InjectOptions => ({ method: 'GET', url: '/api/auth/callback/google?code=x&state=y' }),
      302,
      'auth: Failed to parse state',
    ],
  ])('%s: refused, and logged as a warning', async (_, request, status, line) => {
    const before = t.logs.length;
    const response = await t.app.inject({ ...request(), remoteAddress: nextClientIp() });
    expect(response.statusCode).toBe(status);
    const logged = t.logs.slice(before);
    expect(logged).toContainEqual(expect.objectContaining({ level: 40, msg: line }));
    expect(logged.filter((record) => record.level >= 50)).toEqual([]);
  });
});
