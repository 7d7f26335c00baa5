import { type Kysely, PostgresAdapter, type Selectable } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import type { Database, TreatmentTable } from '../db/schema.js';

export interface TreatmentRecord {
  id: string;
  name: string;
  description: string;
  priceCents: number;
  slots: string[];
  sortOrder: number;
  /** When the clinic retired it (ISO time); null while it is offered. */
  retiredAt: string | null;
}

const COLUMNS = [
  'id',
  'name',
  'description',
  'price_cents',
  'slots',
  'sort_order',
  'retired_at',
] as const;

type Row = Pick<Selectable<TreatmentTable>, (typeof COLUMNS)[number]>;

function toRecord(row: Row): TreatmentRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    priceCents: row.price_cents,
    slots: JSON.parse(row.slots) as string[],
    sortOrder: row.sort_order,
    retiredAt: row.retired_at,
  };
}

/** The treatments the clinic offers (not retired), in display order. */
export async function listTreatments(db: Kysely<Database>): Promise<TreatmentRecord[]> {
  const rows = await db
    .selectFrom('treatment')
    .select(COLUMNS)
    .where('retired_at', 'is', null)
    .orderBy('sort_order')
    .orderBy('name')
    .execute();
  return rows.map(toRecord);
}

/** Every treatment, the retired ones too, in display order: the clinic's catalogue. */
export async function listCatalogue(db: Kysely<Database>): Promise<TreatmentRecord[]> {
  const rows = await db
    .selectFrom('treatment')
    .select(COLUMNS)
    .orderBy('sort_order')
    .orderBy('name')
    .execute();
  return rows.map(toRecord);
}

/** A treatment by id, and an offered one by id: compiled once, as every booking reads one. */
const treatmentById = compiledOnce((db: Kysely<Database>, id: string) =>
  db.selectFrom('treatment').select(COLUMNS).where('id', '=', id),
);
const offeredTreatmentById = compiledOnce((db: Kysely<Database>, id: string) =>
  db.selectFrom('treatment').select(COLUMNS).where('id', '=', id).where('retired_at', 'is', null),
);

/** One treatment of the catalogue, retired or not; undefined for an unknown id. */
export async function findCatalogueTreatment(
  db: Kysely<Database>,
  id: string,
  { offeredOnly = false } = {},
): Promise<TreatmentRecord | undefined> {
  const [row] = await (offeredOnly ? offeredTreatmentById : treatmentById)(db, id);
  return row && toRecord(row);
}

/**
 * One treatment the clinic offers, with its slots, or undefined when it offers none by that id
 * (unknown or retired). A booking reads the treatment it books here, never from the cache below,
 * so that the price charged is the current one and a retired treatment cannot be booked.
 */
export const findTreatment = (db: Kysely<Database>, id: string) =>
  findCatalogueTreatment(db, id, { offeredOnly: true });

/**
 * Whether the treatment still offers `slot`, read in a booking's or a move's transaction, where
 * it holds the treatment's row (a key-share lock, on PostgreSQL) until the transaction ends. A
 * change of the treatment's slots locks that row for update (`lockTreatment`), so it waits for
 * the bookings taking one of its slots now and then sees them; SQLite writes one transaction at a
 * time. Without it, a slot removed while a booking took it stayed held beside the slots that
 * replaced it (the chair booked twice at overlapping times). Compiled once.
 */
export async function stillOffers(
  tx: Kysely<Database>,
  treatmentId: string,
  slot: string,
): Promise<boolean> {
  const [row] = await offeredSlotsHeld(tx, treatmentId);
  return row !== undefined && (JSON.parse(row.slots) as string[]).includes(slot);
}

const offeredSlotsHeld = compiledOnce((tx: Kysely<Database>, id: string) => {
  const query = tx
    .selectFrom('treatment')
    .select('slots')
    .where('id', '=', id)
    .where('retired_at', 'is', null);
  return tx.getExecutor().adapter instanceof PostgresAdapter ? query.forKeyShare() : query;
});

/** Locks the treatment's row for its change (PostgreSQL): see `stillOffers`. */
export async function lockTreatment(tx: Kysely<Database>, id: string): Promise<void> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await tx.selectFrom('treatment').select('id').where('id', '=', id).forUpdate().execute();
}

/** How long a process reuses the treatment list it read for the availability answer. */
export const TREATMENTS_CACHE_MS = 30_000;

const cache = new WeakMap<Kysely<Database>, { at: number; list: Promise<TreatmentRecord[]> }>();

/**
 * The treatments for showing availability, read at most once per TREATMENTS_CACHE_MS per
 * database: a few rows that change only when the clinic edits its price list, asked for by
 * every GET /api/available. Each instance keeps its own copy, so an edit reaches every other
 * instance within that time, or as soon as it is told of it (with Redis, write-news.ts); the
 * instance that made it forgets its copy at once. Bookings never use it (they read the
 * treatment they book, so the price charged is the current one).
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
