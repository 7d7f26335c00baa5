import { type Kysely, sql } from 'kysely';

/**
 * Payments: which provider intent belongs to which booking, the offline demo gateway's own
 * intents, and the Stripe webhook events already handled. No foreign keys to `booking`: an
 * unpaid booking may be cancelled (deleted) after its payment page was opened, and the record of
 * the intent it had must neither block that nor vanish with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One intent per booking, reused whenever the patient opens the payment page again.
  await db.schema
    .createTable('payment_intent')
    .addColumn('booking_id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // The demo gateway's intents: never a card number or CVC, only the last four digits.
  await db.schema
    .createTable('demo_payment_intent')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('booking_id', 'text', (c) => c.notNull().unique())
    .addColumn('amount_cents', 'integer', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('requires_payment_method', 'succeeded')`),
    )
    .addColumn('client_secret', 'text', (c) => c.notNull().unique())
    .addColumn('receipt_email', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last4', 'text')
    .addColumn('last_error_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Stripe delivers an event at least once: its id marks it handled.
  await db.schema
    .createTable('stripe_event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stripe_event', 'demo_payment_intent', 'payment_intent']) {
    await db.schema.dropTable(table).execute();
  }
}
