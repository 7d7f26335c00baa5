import type { Kysely } from 'kysely';
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
 * The user behind a live session, or null when the session has ended (signed out, expired,
 * revoked by a password reset, or the account removed).
 */
export async function findSessionUser(
  db: Kysely<Database>,
  sessionId: string,
  adminEmails: ReadonlySet<string>,
): Promise<CurrentUser | null> {
  const row = await db
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
    .where('session.id', '=', sessionId)
    .executeTakeFirst();
  if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return null;
  const emailVerified = Boolean(row.emailVerified);
  // ADMIN_EMAILS grants the role only to a verified owner of the address.
  const admin = row.role === 'admin' || (emailVerified && adminEmails.has(row.email));
  return {
    id: row.id,
    sessionId: row.sessionId,
    email: row.email,
    name: row.name,
    image: row.image,
    emailVerified,
    role: admin ? 'admin' : 'patient',
  };
}
