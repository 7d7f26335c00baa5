import { hkdfSync, webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** How long an access token lives; the web app renews it about 5 minutes before it ends. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Past this many remembered tokens, the cache starts again from empty. */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

export interface AccessTokens {
  issue(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }>;
  /** The claims of a well-signed, unexpired token; null for anything else. */
  verify(token: string): Promise<AccessClaims | null>;
}

/**
 * Short-lived bearer tokens for the API, signed with a key derived from the auth secret.
 * They name the session they came from, and the API checks that session on every call, so
 * signing out stops a token at once.
 *
 * The key is imported into Web Crypto once: given raw bytes, jose imports them again on every
 * call. A token whose signature checked out is remembered until it expires, since the same
 * text always verifies the same way; a client sends its token with every call for 15 minutes.
 * (Both measured in docs/performance.md: the bearer routes spent most of their time here.)
 */
export function accessTokens(secret: string, issuer: string): AccessTokens {
  const raw = new Uint8Array(hkdfSync('sha256', secret, 'doctors-portal', 'api access token', 32));
  const key = webcrypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const audience = `${issuer}/api`;
  const verified = new Map<string, AccessClaims & { expiresAt: number }>();

  async function verifySignature(token: string) {
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ['HS256'],
        issuer,
        audience,
      });
      const { sub, sid, exp } = payload;
      if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') {
        return null;
      }
      return { userId: sub, sessionId: sid, expiresAt: exp * 1000 };
    } catch {
      return null;
    }
  }

  return {
    async issue({ userId, sessionId }) {
      const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(await key);
      return { token, expiresAt };
    },
    async verify(token) {
      let claims = verified.get(token);
      if (!claims) {
        const checked = await verifySignature(token);
        if (!checked) return null;
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, checked);
        claims = checked;
      }
      if (claims.expiresAt <= Date.now()) {
        verified.delete(token);
        return null;
      }
      return { userId: claims.userId, sessionId: claims.sessionId };
    },
  };
}
