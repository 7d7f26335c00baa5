import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { ContactMessageTable, Database } from '../db/schema.js';

export type ContactMessageRow = Selectable<ContactMessageTable>;

/** Stores a visitor's message, in the caller's transaction (its mail to the clinic is queued there). */
export async function insertContactMessage(
  tx: Kysely<Database>,
  message: { email: string; subject: string; message: string },
  at: Date,
): Promise<ContactMessageRow> {
  const row: ContactMessageRow = {
    id: randomUUID(),
    email: message.email,
    subject: message.subject,
    message: message.message,
    created_at: at.toISOString(),
    read_at: null,
  };
  await tx.insertInto('contact_message').values(row).execute();
  return row;
}

/** One page of messages, newest first, and how many there are in all (and unread). */
export async function listContactMessages(
  db: Kysely<Database>,
  page: { limit: number; offset: number; unreadOnly: boolean },
): Promise<{ rows: ContactMessageRow[]; total: number; unread: number }> {
  let query = db.selectFrom('contact_message').selectAll();
  if (page.unreadOnly) query = query.where('read_at', 'is', null);
  const [rows, counts] = await Promise.all([
    query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('contact_message')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.count<number>('id').filterWhere('read_at', 'is', null).as('unread'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  const unread = Number(counts.unread);
  return { rows, total: page.unreadOnly ? unread : Number(counts.total), unread };
}

/** Marks a message read (now) or unread; answers it as it then is, or null for no such message. */
export async function markContactMessage(
  db: Kysely<Database>,
  id: string,
  read: boolean,
  at: Date,
): Promise<ContactMessageRow | null> {
  const row = await db
    .updateTable('contact_message')
    .set({ read_at: read ? at.toISOString() : null })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The messages sent from an address since `since` (ISO time), oldest first, for its owner's own
 * data: since the account was made, so that an address's next owner, once an account was
 * removed, reads none of the one before's.
 */
export async function contactMessagesFrom(db: Kysely<Database>, email: string, since: string) {
  return db
    .selectFrom('contact_message')
    .select(['subject', 'message', 'created_at', 'read_at'])
    .where('email', '=', email)
    .where('created_at', '>=', since)
    .orderBy('created_at')
    .execute();
}
