import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, accessTokens } from './access-token.js';

const ISSUER = 'http://portal.test';
const claims = { userId: 'user-1', sessionId: 'session-1' };
/** The claims a token checks out with: what it was issued for, and when it ends. */
const verified = (expected = claims) => ({ ...expected, expiresAt: expect.any(Number) });

afterEach(() => {
  vi.useRealTimers();
});

describe('access tokens', () => {
  it('verify what they issued, again and again', async () => {
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    const { token } = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(verified());
    expect(await tokens.verify(token)).toEqual(verified());
  });

  it('refuse a token signed with another secret or for another portal', async () => {
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    const other = accessTokens('another-secret-of-enough-length', ISSUER);
    const elsewhere = accessTokens('a-secret-of-enough-length-for-tests', 'http://other.test');
    expect(await tokens.verify((await other.issue(claims)).token)).toBeNull();
    expect(await tokens.verify((await elsewhere.issue(claims)).token)).toBeNull();
  });

  it('refuse a token whose payload was changed', async () => {
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    const { token } = await tokens.issue(claims);
    await tokens.verify(token);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(String(payload), 'base64url').toString()),
        sub: 'admin',
      }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeNull();
    expect(await tokens.verify('not a token')).toBeNull();
  });

  it('refuse any other algorithm, a signature spelt otherwise, and extra parts', async () => {
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    const { token } = await tokens.issue(claims);
    const [, payload, signature] = token.split('.');
    const header = (fields: object) => Buffer.from(JSON.stringify(fields)).toString('base64url');
    expect(await tokens.verify(`${header({ alg: 'none' })}.${payload}.`)).toBeNull();
    expect(
      await tokens.verify(`${header({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`),
    ).toBeNull();
    // The same bytes in standard base64 rather than base64url, or padded.
    const standard = Buffer.from(String(signature), 'base64url').toString('base64');
    expect(await tokens.verify(token.replace(String(signature), standard))).toBeNull();
    expect(await tokens.verify(`${token}=`)).toBeNull();
    expect(await tokens.verify(`${token}.more`)).toBeNull();
    expect(await tokens.verify(token)).toEqual(verified());
  });

  it('are the JWTs tokens were before: one issued then still verifies', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z'), toFake: ['Date'] });
    // Issued by jose's SignJWT with this secret and issuer at that moment.
    const earlier =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzaWQiOiJzZXNzaW9uLTEiLCJzdWIiOiJ1c2VyLTEiLCJpc3MiOiJod' +
      'HRwOi8vcG9ydGFsLnRlc3QiLCJhdWQiOiJodHRwOi8vcG9ydGFsLnRlc3QvYXBpIiwiaWF0IjoxNzk1MzQxNjAwLCJleH' +
      'AiOjE3OTUzNDI1MDB9.OuVBlJzzI8S4S8KNQrhf0_yiqDky4f7o2fYc1x42GDY';
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    expect(await tokens.verify(earlier)).toEqual(verified());
    expect((await tokens.issue(claims)).token).toBe(earlier);
  });

  it('are JWTs as jose, a maintained library, reads and writes them', async () => {
    const secret = 'a-secret-of-enough-length-for-tests';
    // The key the portal derives from its secret (decision 036).
    const key = new Uint8Array(
      hkdfSync('sha256', secret, 'doctors-portal', 'api access token', 32),
    );
    const tokens = accessTokens(secret, ISSUER);
    const { token } = await tokens.issue(claims);
    const { payload, protectedHeader } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: `${ISSUER}/api`,
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: claims.userId, sid: claims.sessionId });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(ACCESS_TOKEN_TTL_SECONDS);

    const signed = await new SignJWT({ sid: 'session-2' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('user-2')
      .setIssuer(ISSUER)
      .setAudience(`${ISSUER}/api`)
      .setIssuedAt()
      .setExpirationTime('15m')
      .sign(key);
    expect(await tokens.verify(signed)).toEqual(
      verified({ userId: 'user-2', sessionId: 'session-2' }),
    );
    const expired = await new SignJWT({ sid: 'session-2' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('user-2')
      .setIssuer(ISSUER)
      .setAudience(`${ISSUER}/api`)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
      .sign(key);
    expect(await tokens.verify(expired)).toBeNull();
  });

  it('stop working when they expire, even once verified', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z'), toFake: ['Date'] });
    const tokens = accessTokens('a-secret-of-enough-length-for-tests', ISSUER);
    const { token, expiresAt } = await tokens.issue(claims);
    expect(expiresAt.getTime()).toBe(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
    expect(await tokens.verify(token)).toEqual({ ...claims, expiresAt: expiresAt.getTime() });
    vi.setSystemTime(expiresAt);
    expect(await tokens.verify(token)).toBeNull();
  });
});
