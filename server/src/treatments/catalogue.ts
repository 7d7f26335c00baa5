import { randomBytes } from 'node:crypto';
import {
  centsToDollars,
  dollarsToCents,
  type HeldSlot,
  type IsoDate,
  type Treatment,
  treatmentErrors,
} from '@doctors-portal/contract';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { type AuditActor, recordAudit } from '../audit/log.js';
import { forgetAvailabilityAnswers } from '../bookings/availability-cache.js';
import { bookingsHoldingSlots } from '../bookings/repository.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { HttpError } from '../http/errors.js';
import {
  findCatalogueTreatment,
  forgetCachedTreatments,
  lockTreatment,
  type TreatmentRecord,
} from './repository.js';

/**
 * What the clinic's administrators do to the treatments (`/dashboard/treatments`): add one, edit
 * its name, description, price and slot times, retire it and bring it back. Each change and its
 * audit entry are written in one transaction; afterwards this instance forgets its cached
 * treatments and availability answers, so that `/api/available` shows the change at once
 * (other instances as soon as they hear of it, decision 040, and within their caches' time in
 * any case). Bookings are never changed: they keep the name and price they were booked with
 * (docs/decisions/018).
 */

/** A treatment as the API shows it. */
export function toApiTreatment(record: TreatmentRecord): Treatment {
  return {
    _id: record.id,
    name: record.name,
    description: record.description,
    price: centsToDollars(record.priceCents),
    slots: record.slots,
    retired: record.retiredAt !== null,
    retiredAt: record.retiredAt,
    sortOrder: record.sortOrder,
  };
}

/** Refusal of a change that removes slot times future bookings hold; lists those bookings. */
export class SlotsHeldError extends HttpError {
  constructor(readonly bookings: HeldSlot[]) {
    super(409, treatmentErrors.slotsHeld(bookings.length));
    this.name = 'SlotsHeldError';
  }
}

/** The fields the audit log keeps of a treatment, the price in dollars. */
function auditFields(record: TreatmentRecord) {
  return {
    name: record.name,
    description: record.description,
    price: centsToDollars(record.priceCents),
    slots: record.slots,
  };
}

const subject = (record: { id: string; name: string }) => ({
  type: 'treatment',
  id: record.id,
  label: record.name,
});

/** After a change committed: this instance answers with the new catalogue from now on. */
function forgetCaches(db: Kysely<Database>) {
  forgetCachedTreatments(db);
  forgetAvailabilityAnswers();
}

/**
 * Refuses a name another treatment has, in any case; a retired one's name says so. On
 * PostgreSQL the check takes a lock that the transaction holds until it ends, so that names
 * differing in case saved at once are checked one after the other: the unique index sees only
 * the same spelling, and each check reads committed rows only. SQLite writes one at a time.
 */
async function assertNameFree(tx: Kysely<Database>, name: string, except?: string) {
  if (tx.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`select pg_advisory_xact_lock(hashtextextended('treatment names', 0))`.execute(tx);
  }
  // lower() is JavaScript's on SQLite too (db/database.ts): 'ÄSTHETIK' matches 'Ästhetik'.
  let query = tx
    .selectFrom('treatment')
    .select(['name', 'retired_at'])
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (except) query = query.where('id', '!=', except);
  const other = await query.executeTakeFirst();
  if (!other) return;
  throw new HttpError(
    409,
    other.retired_at === null
      ? treatmentErrors.duplicateName(other.name)
      : treatmentErrors.retiredName(other.name),
  );
}

/** 'Root Canal' → 'root-canal'; a random id when the name has no letters or digits to use. */
function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || `treatment-${randomBytes(4).toString('hex')}`;
}

export interface NewTreatmentInput {
  name: string;
  description: string;
  price: number;
  slots: string[];
}

/** `POST /api/treatments`: adds a treatment after the others, offered from now on. */
export async function createTreatment(
  db: Kysely<Database>,
  actor: AuditActor,
  input: NewTreatmentInput,
): Promise<TreatmentRecord> {
  const base = slugOf(input.name);
  let record: TreatmentRecord | undefined;
  try {
    record = await db.transaction().execute(async (tx) => {
      await assertNameFree(tx, input.name);
      const taken = await tx
        .selectFrom('treatment')
        .select('id')
        .where('id', '=', base)
        .executeTakeFirst();
      const id = taken ? `${base}-${randomBytes(3).toString('hex')}` : base;
      const last = await tx
        .selectFrom('treatment')
        .select((eb) => eb.fn.max('sort_order').as('max'))
        .executeTakeFirst();
      const created: TreatmentRecord = {
        id,
        name: input.name,
        description: input.description,
        priceCents: dollarsToCents(input.price),
        slots: input.slots,
        sortOrder: Number(last?.max ?? 0) + 1,
        retiredAt: null,
      };
      await tx
        .insertInto('treatment')
        .values({
          id: created.id,
          name: created.name,
          description: created.description,
          price_cents: created.priceCents,
          slots: JSON.stringify(created.slots),
          sort_order: created.sortOrder,
        })
        .execute();
      await recordAudit(tx, {
        actor,
        action: 'treatment.created',
        subject: subject(created),
        after: auditFields(created),
      });
      return created;
    });
  } catch (error) {
    // Another administrator added the same name (or id) at the same moment.
    if (isUniqueViolation(error))
      throw new HttpError(409, treatmentErrors.duplicateName(input.name));
    throw error;
  }
  forgetCaches(db);
  return record;
}

export interface TreatmentChangeInput {
  name?: string;
  description?: string;
  price?: number;
  slots?: string[];
  retired?: boolean;
}

/** The live bookings from the clinic's `today` on that hold one of `slots`, as the API lists them. */
async function bookingsHolding(
  tx: Kysely<Database>,
  treatmentId: string,
  slots: string[],
  today: IsoDate,
): Promise<HeldSlot[]> {
  const rows = await bookingsHoldingSlots(tx, treatmentId, slots, today);
  return rows.map((row) => ({
    _id: row.id,
    date: row.date,
    slot: row.slot,
    patientName: row.patient_name,
  }));
}

/**
 * `PATCH /api/treatments/{id}`: changes any of a treatment's fields, retires it or offers it
 * again. A change whose slot times leave out one that a booking from `today` on holds is refused
 * with those bookings (SlotsHeldError); the clinic keeps the slot, or cancels the bookings first.
 * Retiring leaves the bookings as they are. Answers the treatment as it now is.
 */
export async function changeTreatment(
  db: Kysely<Database>,
  actor: AuditActor,
  id: string,
  change: TreatmentChangeInput,
  today: IsoDate,
  now = new Date(),
): Promise<TreatmentRecord> {
  let record: TreatmentRecord;
  try {
    record = await db.transaction().execute(async (tx) => {
      // After the bookings taking one of its slots now, which the check of held slots then sees.
      await lockTreatment(tx, id);
      const before = await findCatalogueTreatment(tx, id);
      if (!before) throw new HttpError(404, treatmentErrors.noSuchTreatment);
      const after: TreatmentRecord = {
        ...before,
        name: change.name ?? before.name,
        description: change.description ?? before.description,
        priceCents: change.price === undefined ? before.priceCents : dollarsToCents(change.price),
        slots: change.slots ?? before.slots,
        retiredAt:
          change.retired === undefined
            ? before.retiredAt
            : change.retired
              ? (before.retiredAt ?? now.toISOString())
              : null,
      };
      if (after.name.toLowerCase() !== before.name.toLowerCase() || after.retiredAt === null) {
        await assertNameFree(tx, after.name, id);
      }
      const removed = before.slots.filter((slot) => !after.slots.includes(slot));
      const held = await bookingsHolding(tx, id, removed, today);
      if (held.length > 0) throw new SlotsHeldError(held);

      const fieldsBefore = auditFields(before) as Record<string, unknown>;
      const fieldsAfter = auditFields(after) as Record<string, unknown>;
      const changed = Object.keys(fieldsAfter).filter(
        (key) => JSON.stringify(fieldsBefore[key]) !== JSON.stringify(fieldsAfter[key]),
      );
      const retiring = before.retiredAt === null && after.retiredAt !== null;
      const restoring = before.retiredAt !== null && after.retiredAt === null;
      if (changed.length === 0 && !retiring && !restoring) return before;

      await tx
        .updateTable('treatment')
        .set({
          name: after.name,
          description: after.description,
          price_cents: after.priceCents,
          slots: JSON.stringify(after.slots),
          retired_at: after.retiredAt,
        })
        .where('id', '=', id)
        .execute();
      if (changed.length > 0) {
        await recordAudit(tx, {
          actor,
          action: 'treatment.updated',
          subject: subject(after),
          before: Object.fromEntries(changed.map((key) => [key, fieldsBefore[key]])),
          after: Object.fromEntries(changed.map((key) => [key, fieldsAfter[key]])),
          at: now,
        });
      }
      if (retiring || restoring) {
        await recordAudit(tx, {
          actor,
          action: retiring ? 'treatment.retired' : 'treatment.restored',
          subject: subject(after),
          before: { retiredAt: before.retiredAt },
          after: { retiredAt: after.retiredAt },
          at: now,
        });
      }
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new HttpError(409, treatmentErrors.duplicateName(change.name ?? ''));
    }
    throw error;
  }
  forgetCaches(db);
  return record;
}
