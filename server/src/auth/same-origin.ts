import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/env.js';
import { errorBody } from '../http/errors.js';

/** Where `npm run dev` serves the pages: Vite's dev server, which forwards /api to the API. */
export const DEV_SERVER_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/** The host names of this machine's loopback interface, as a URL writes them. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The portal's own origin and, when that is a loopback address (as it is with no PUBLIC_URL:
 * http://localhost:PORT), the other spellings of the same port: http://127.0.0.1:PORT and
 * http://[::1]:PORT reach the same portal on the same machine, and a browser opened at any of
 * them must be able to sign up.
 */
export function ownOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [publicUrl];
  const port = url.port ? `:${url.port}` : '';
  const spellings = LOOPBACK_HOSTS.map((host) => `${url.protocol}//${host}${port}`);
  return [publicUrl, ...spellings.filter((origin) => origin !== url.origin)];
}

/**
 * The origins whose pages may make cookie-authenticated requests: the portal's own (every
 * loopback spelling of it, see `ownOrigins`), those in TRUSTED_ORIGINS and, in development
 * only, Vite's dev server (its proxy passes the browser's Origin on unchanged).
 */
export function trustedOriginsOf(config: Pick<Config, 'env' | 'publicUrl' | 'auth'>): string[] {
  return [
    ...ownOrigins(config.publicUrl),
    ...config.auth.trustedOrigins,
    ...(config.env === 'development' ? DEV_SERVER_ORIGINS : []),
  ];
}

export const CROSS_SITE_MESSAGE =
  'This request came from another website, so the portal refused it. Open the portal itself and try again.';

/** 'https://clinic.example' from 'https://clinic.example/some/path'; null when not a URL. */
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * A guard for routes a session cookie alone authorises (browsers attach it to requests from any
 * site): the request must come from the portal's own pages or a trusted origin. A browser says
 * where a request comes from in `Origin` and `Sec-Fetch-Site`; a request naming another site in
 * either is refused with 403. Clients that are not browsers send neither and may pass.
 */
export function sameOriginOnly(trustedOrigins: readonly string[]) {
  const allowed = new Set(trustedOrigins.map(originOf).filter((origin) => origin !== null));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    const foreignOrigin = origin !== undefined && !allowed.has(originOf(origin) ?? 'null');
    if (foreignOrigin || site === 'cross-site') {
      request.log.warn({ origin, site }, 'refused a cross-site request');
      return reply.code(403).send(errorBody(403, CROSS_SITE_MESSAGE));
    }
  };
}
