import type { Kysely } from 'kysely';

/**
 * When a booking's patient moved it inside the clinic's cancellation notice (null: never). A
 * move is allowed then (a reminder's Reschedule link comes about that notice before the visit),
 * but the visit it lands on is no longer cancelled online: moved out of the notice and then
 * cancelled, a late cancellation would pass for a free one, refunded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('booking').addColumn('moved_late_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('booking').dropColumn('moved_late_at').execute();
}
