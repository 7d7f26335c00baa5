import type { Kysely } from 'kysely';

/**
 * The patient's age on their account: optional, declared to Better Auth as an additional user
 * field like the phone (migrations/0015), so that `update-user` sets it; a first booking fills
 * it when empty. Bookings keep their own age, as the patient gave it for that visit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').addColumn('age', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('age').execute();
}
