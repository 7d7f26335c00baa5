import { hkdfSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** How long an access token lives; the web app renews it about 5 minutes before it ends. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

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
 */
export function accessTokens(secret: string, issuer: string): AccessTokens {
  const key = new Uint8Array(hkdfSync('sha256', secret, 'doctors-portal', 'api access token', 32));
  return {
    async issue({ userId, sessionId }) {
      const expiresAt = new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000);
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(issuer)
        .setAudience(`${issuer}/api`)
        .setIssuedAt()
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer,
          audience: `${issuer}/api`,
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return { userId: payload.sub, sessionId: payload.sid };
      } catch {
        return null;
      }
    },
  };
}
