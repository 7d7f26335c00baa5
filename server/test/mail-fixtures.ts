import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.js';

/**
 * A queued message the sender gave up on (ten refusals, `send_after` null), written straight
 * into the queue: no sender takes it, and the back office lists it as failed. Its id.
 */
export async function failedMail(
  db: Kysely<Database>,
  fields: { to?: string; createdAt?: Date; sendAfter?: Date | null } = {},
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('mail_queue')
    .values({
      id,
      kind: 'contact-message',
      payload: JSON.stringify({
        kind: 'contact-message',
        to: fields.to ?? 'clinic@mail.com',
        message: {
          id,
          email: 'visitor@mail.com',
          subject: 'A question',
          message: 'Hello',
          receivedAt: new Date().toISOString(),
        },
      }),
      created_at: (fields.createdAt ?? new Date()).toISOString(),
      send_after: fields.sendAfter === undefined ? null : (fields.sendAfter?.toISOString() ?? null),
      attempts: 10,
      last_error: 'Could not send over SMTP at 127.0.0.1:1: connect ECONNREFUSED',
    })
    .execute();
  return id;
}
