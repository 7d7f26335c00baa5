import type { Kysely } from 'kysely';

/**
 * When the provider reported that a refund failed (null: it stands), and the provider's reason
 * ('expired_or_canceled_card', …). A card refund Stripe accepted can fail days later; the money
 * is then not back with the patient, and the clinic has to return it another way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refund').addColumn('failed_at', 'text').execute();
  await db.schema.alterTable('refund').addColumn('failure_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refund').dropColumn('failure_reason').execute();
  await db.schema.alterTable('refund').dropColumn('failed_at').execute();
}
