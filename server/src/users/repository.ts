import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Gives or takes the admin role; answers whether an account with that email exists. */
export async function setAdmin(
  db: Kysely<Database>,
  email: string,
  admin: boolean,
): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ role: admin ? 'admin' : null, updatedAt: new Date().toISOString() })
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
