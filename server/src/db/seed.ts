import type { Kysely } from 'kysely';
import { forgetCachedTreatments } from '../treatments/repository.js';
import { demoTreatments } from './demo-data.js';
import type { Database } from './schema.js';

/**
 * Inserts the demo clinic data that is missing. Existing rows are left as they are, so the
 * seed can run at every start and never overwrites what the clinic has changed.
 */
export async function seedDemoData(db: Kysely<Database>): Promise<{ inserted: number }> {
  const result = await db
    .insertInto('treatment')
    .values(demoTreatments)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  forgetCachedTreatments(db);
  return { inserted: Number(result.numInsertedOrUpdatedRows ?? 0) };
}
