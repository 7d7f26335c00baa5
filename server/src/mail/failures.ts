import type { MailFailure } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The failures the back office lists at most. */
const LISTED = 200;

/**
 * A queued message has failed when its last attempt did: its error is kept until the next
 * attempt takes it (queue.ts clears it with the lease), so a message in a sender's hands is never
 * listed, nor made due again under it.
 */
function failed(db: Kysely<Database>) {
  return db.selectFrom('mail_queue').where('last_error', 'is not', null);
}

/** The failed messages, newest first, as the back office shows them. */
export async function listFailedMail(db: Kysely<Database>): Promise<MailFailure[]> {
  const rows = await failed(db)
    .select(['id', 'kind', 'payload', 'attempts', 'last_error', 'send_after', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(LISTED)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: (JSON.parse(row.payload) as { to: string }).to,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.send_after,
    createdAt: row.created_at,
  }));
}

/** Makes a failed message due now with a fresh round of attempts; false when there is none. */
export async function retryFailedMail(db: Kysely<Database>, id: string): Promise<boolean> {
  const result = await db
    .updateTable('mail_queue')
    .set({ send_after: new Date().toISOString(), attempts: 0 })
    .where('id', '=', id)
    .where('last_error', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
