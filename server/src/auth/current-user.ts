import type { Kysely } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import type { Database } from '../db/schema.js';

export type Role = 'admin' | 'patient';

/** Who is calling, as every authorised route sees it. */
export interface CurrentUser {
  id: string;
  sessionId: string;
  email: string;
  name: string;
  image: string | null;
  emailVerified: boolean;
  role: Role;
}

/**
 * The admin rule: the 'admin' role, or an address listed in ADMIN_EMAILS once its owner has
 * verified it (so nobody claims the role by signing up first with an admin's address).
 */
export function isAdmin(
  user: { role: string | null; emailVerified: number | boolean; email: string },
  adminEmails: ReadonlySet<string>,
): boolean {
  return user.role === 'admin' || (Boolean(user.emailVerified) && adminEmails.has(user.email));
}

/** Every signed-in call reads its session: compiled once. */
const sessionWithUser = compiledOnce((db: Kysely<Database>, sessionId: string) =>
  db
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.userId')
    .select([
      'session.id as sessionId',
      'session.expiresAt',
      'user.id',
      'user.email',
      'user.name',
      'user.image',
      'user.emailVerified',
      'user.role',
    ])
    .where('session.id', '=', sessionId),
);

/** A live session's user, and when the session ends (ms since the epoch). */
export interface LiveSession {
  user: CurrentUser;
  expiresAt: number;
}

/**
 * The user behind a live session and when it ends, or null when the session has ended (signed
 * out, expired, revoked by a password reset, or the account removed).
 */
export async function findLiveSession(
  db: Kysely<Database>,
  sessionId: string,
  adminEmails: ReadonlySet<string>,
): Promise<LiveSession | null> {
  const [row] = await sessionWithUser(db, sessionId);
  const expiresAt = row ? new Date(row.expiresAt).getTime() : 0;
  if (!row || expiresAt <= Date.now()) return null;
  const emailVerified = Boolean(row.emailVerified);
  const admin = isAdmin(row, adminEmails);
  const user: CurrentUser = {
    id: row.id,
    sessionId: row.sessionId,
    email: row.email,
    name: row.name,
    image: row.image,
    emailVerified,
    role: admin ? 'admin' : 'patient',
  };
  return { user, expiresAt };
}

/** The user behind a live session, or null when it has ended (see findLiveSession). */
export async function findSessionUser(
  db: Kysely<Database>,
  sessionId: string,
  adminEmails: ReadonlySet<string>,
): Promise<CurrentUser | null> {
  return (await findLiveSession(db, sessionId, adminEmails))?.user ?? null;
}
