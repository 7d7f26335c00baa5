import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface TreatmentRecord {
  id: string;
  name: string;
  priceCents: number;
  slots: string[];
}

/** The clinic's treatments in display order. */
export async function listTreatments(db: Kysely<Database>): Promise<TreatmentRecord[]> {
  const rows = await db
    .selectFrom('treatment')
    .select(['id', 'name', 'price_cents', 'slots'])
    .orderBy('sort_order')
    .orderBy('name')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    priceCents: row.price_cents,
    slots: JSON.parse(row.slots) as string[],
  }));
}
