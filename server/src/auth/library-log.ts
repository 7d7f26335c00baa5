import type { BetterAuthOptions } from 'better-auth';
import type { FastifyBaseLogger } from 'fastify';

type LibraryLogger = NonNullable<BetterAuthOptions['logger']>;
/** The levels Better Auth logs at, as its `logger` option receives them. */
type Level = Parameters<NonNullable<LibraryLogger['log']>>[0];

/**
 * Better Auth's error lines that tell of a request it refused for the caller's own doing: a
 * redirect or origin of another site, a sign-in's state that is stale or forged, a provider the
 * portal does not have. Anyone can send those, and the answer (a 4xx or the sign-in page's error)
 * already tells the caller, so they are warnings: at error level, an outsider could page whoever
 * watches the portal's errors. Every other line of the library's keeps its level.
 */
const REFUSALS = [
  /^Invalid (callbackURL|redirectURL|errorCallbackURL|newUserCallbackURL|origin): /,
  /^Blocked cross-site navigation login attempt/,
  /^INVALID_CALLBACK_REQUEST$/,
  /^State not found/,
  /^Failed to parse state$/,
  /^No callback URL found/,
  /^Provider not found\./,
];

/** The level the portal logs one of Better Auth's lines at. */
export function libraryLogLevel(level: Level, message: string): Level {
  return level === 'error' && REFUSALS.some((refusal) => refusal.test(message)) ? 'warn' : level;
}

/** Better Auth's `logger` option: its lines in the portal's log, prefixed `auth: `. */
export function libraryLogger(log: FastifyBaseLogger): LibraryLogger {
  return {
    log: (level, message, ...args) =>
      log[libraryLogLevel(level, message)]({ args }, `auth: ${message}`),
  };
}
