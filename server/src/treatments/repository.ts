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

/**
 * One treatment with its slots, or undefined when the clinic has no treatment by that id. A
 * booking reads the treatment it books here, never from the cache below, so that the price
 * charged is the current one.
 */
export async function findTreatment(
  db: Kysely<Database>,
  id: string,
): Promise<TreatmentRecord | undefined> {
  const row = await db
    .selectFrom('treatment')
    .select(['id', 'name', 'price_cents', 'slots'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      priceCents: row.price_cents,
      slots: JSON.parse(row.slots) as string[],
    }
  );
}

/** How long a process reuses the treatment list it read for the availability answer. */
export const TREATMENTS_CACHE_MS = 30_000;

const cache = new WeakMap<Kysely<Database>, { at: number; list: Promise<TreatmentRecord[]> }>();

/**
 * The treatments for showing availability, read at most once per TREATMENTS_CACHE_MS per
 * database: seven rows that change only when the clinic edits its price list, asked for by
 * every GET /api/available. Each instance keeps its own copy, so an edit reaches every
 * instance within that time; bookings never use it (they read the treatment they book, so the
 * price charged is the current one).
 */
export function cachedTreatments(
  db: Kysely<Database>,
  now = Date.now(),
): Promise<TreatmentRecord[]> {
  const hit = cache.get(db);
  if (hit && now - hit.at < TREATMENTS_CACHE_MS) return hit.list;
  const list = listTreatments(db);
  cache.set(db, { at: now, list });
  // A failed read is not kept: the next call asks the database again.
  list.catch(() => {
    if (cache.get(db)?.list === list) cache.delete(db);
  });
  return list;
}

/** Forgets the cached treatments of `db` (after the process itself changes them). */
export function forgetCachedTreatments(db: Kysely<Database>): void {
  cache.delete(db);
}
