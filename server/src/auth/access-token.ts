import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How long an access token lives; the web app renews it about 5 minutes before it ends. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
/** Past this many remembered tokens, the cache starts again from empty. */
const VERIFIED_CACHE_SIZE = 10_000;

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/** What a checked token says, and when it ends (ms since the epoch). */
export interface VerifiedClaims extends AccessClaims {
  expiresAt: number;
}

export interface AccessTokens {
  issue(claims: AccessClaims): Promise<{ token: string; expiresAt: Date }>;
  /** The claims of a well-signed, unexpired token; null for anything else. */
  verify(token: string): Promise<VerifiedClaims | null>;
}

/**
 * The one header the portal signs its tokens with, as it is written into them: a token naming any
 * other algorithm (or none) is refused before anything else is read.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Short-lived bearer tokens for the API: JWTs (RFC 7519) signed with HMAC-SHA256 by a key
 * derived from the auth secret. They name the session they came from, and the API checks that
 * session, so signing out stops a token at once (on another instance within a second: decision
 * 039).
 *
 * Signed and checked with node:crypto, synchronously: through Web Crypto (jose) each check was a
 * job on the thread pool and its promise, about a tenth of a booking's CPU for a token seen for
 * the first time (docs/performance.md). A token whose signature checked out is remembered until
 * it expires, since the same text always verifies the same way; a client sends its token with
 * every call for 15 minutes.
 */
export function accessTokens(secret: string, issuer: string): AccessTokens {
  const key = Buffer.from(hkdfSync('sha256', secret, 'doctors-portal', 'api access token', 32));
  const audience = `${issuer}/api`;
  const verified = new Map<string, VerifiedClaims>();

  const signatureOf = (signed: string) =>
    createHmac('sha256', key).update(signed).digest('base64url');

  /** The claims of a token this portal signed, or null: checked in full, the signature first. */
  function checked(token: string) {
    const [header, payload, signature, ...rest] = token.split('.');
    if (header !== HEADER || payload === undefined || signature === undefined || rest.length > 0) {
      return null;
    }
    const expected = Buffer.from(signatureOf(`${header}.${payload}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const { sub, sid, iss, aud, exp } = claims;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') return null;
    if (iss !== issuer || aud !== audience) return null;
    return { userId: sub, sessionId: sid, expiresAt: exp * 1000 };
  }

  return {
    async issue({ userId, sessionId }) {
      const issuedAt = Math.floor(Date.now() / 1000);
      const expiresAt = new Date((issuedAt + ACCESS_TOKEN_TTL_SECONDS) * 1000);
      const claims = {
        sid: sessionId,
        sub: userId,
        iss: issuer,
        aud: audience,
        iat: issuedAt,
        exp: issuedAt + ACCESS_TOKEN_TTL_SECONDS,
      };
      const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
      const token = `${HEADER}.${payload}.${signatureOf(`${HEADER}.${payload}`)}`;
      return { token, expiresAt };
    },
    async verify(token) {
      let claims = verified.get(token);
      if (!claims) {
        const fresh = checked(token);
        if (!fresh) return null;
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
        verified.set(token, fresh);
        claims = fresh;
      }
      if (claims.expiresAt <= Date.now()) {
        verified.delete(token);
        return null;
      }
      return claims;
    },
  };
}
