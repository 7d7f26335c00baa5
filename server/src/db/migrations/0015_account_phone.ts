import type { Kysely } from 'kysely';

/**
 * The patient's phone on their account (issue 16, the account page): optional, declared to
 * Better Auth as an additional user field so that `update-user` sets it. Bookings keep their
 * own phone, as the patient gave it for that visit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').addColumn('phone', 'varchar(20)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('phone').execute();
}
