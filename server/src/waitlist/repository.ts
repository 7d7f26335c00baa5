import type { IsoDate } from '@doctors-portal/contract';
import { type Kysely, PostgresAdapter } from 'kysely';
import { compiledOnce } from '../db/compiled-once.js';
import { orderedId } from '../db/ordered-id.js';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';

/** One waitlist entry with its treatment's name, as the patient's list shows it. */
export interface WaitlistRow {
  id: string;
  patient_id: string;
  treatment_id: string;
  treatment: string;
  date: IsoDate;
  created_at: string;
}

/** A waiting patient to tell of a freed slot. */
export interface WaitingPatient {
  entryId: string;
  name: string;
  email: string;
}

/**
 * Puts the patient on the list of a treatment's date; false when they are on it already (the
 * unique index decides, so two concurrent joins make one entry).
 */
export async function insertEntry(
  db: Kysely<Database>,
  entry: { patientId: string; treatmentId: string; date: IsoDate; now: Date },
): Promise<string | null> {
  const id = orderedId();
  try {
    await db
      .insertInto('waitlist_entry')
      .values({
        id,
        patient_id: entry.patientId,
        treatment_id: entry.treatmentId,
        date: entry.date,
        created_at: entry.now.toISOString(),
      })
      .execute();
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

const entryRows = (db: Kysely<Database>) =>
  db
    .selectFrom('waitlist_entry as e')
    .innerJoin('treatment as t', 't.id', 'e.treatment_id')
    .select([
      'e.id',
      'e.patient_id',
      'e.treatment_id',
      't.name as treatment',
      'e.date',
      'e.created_at',
    ]);

/** The patient's entries from `today` on, the soonest date first, then in the order joined. */
export async function listEntries(
  db: Kysely<Database>,
  patientId: string,
  today: IsoDate,
): Promise<WaitlistRow[]> {
  return entryRows(db)
    .where('e.patient_id', '=', patientId)
    .where('e.date', '>=', today)
    .orderBy('e.date')
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}

/** Every entry of the patient's, past ones too, in the order joined: for their own data. */
export async function allEntriesOf(
  db: Kysely<Database>,
  patientId: string,
): Promise<WaitlistRow[]> {
  return entryRows(db)
    .where('e.patient_id', '=', patientId)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
}

export async function findEntry(
  db: Kysely<Database>,
  id: string,
): Promise<WaitlistRow | undefined> {
  return entryRows(db).where('e.id', '=', id).executeTakeFirst();
}

export async function deleteEntry(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('waitlist_entry').where('id', '=', id).execute();
}

/** Takes the patient off a treatment's list for a date (they now hold it); compiled once. */
export const leaveOnBooking = compiledOnce(
  (tx: Kysely<Database>, patientId: string, treatmentId: string, date: IsoDate) =>
    tx
      .deleteFrom('waitlist_entry')
      .where((eb) => eb.and({ patient_id: patientId, treatment_id: treatmentId, date })),
);

/**
 * The first `count` patients waiting for the treatment on the date who were not told of `slot`
 * yet, in the order they joined, recorded as told of it in `tx` (the freeing's transaction).
 */
export async function takeWaitingFor(
  tx: Kysely<Database>,
  freed: { treatmentId: string; date: IsoDate; slot: string },
  count: number,
  now: Date,
): Promise<WaitingPatient[]> {
  let query = tx
    .selectFrom('waitlist_entry as e')
    .innerJoin('user as u', 'u.id', 'e.patient_id')
    .select(['e.id as entryId', 'u.name', 'u.email'])
    .where('e.treatment_id', '=', freed.treatmentId)
    .where('e.date', '=', freed.date)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('waitlist_notice as n')
            .select('n.entry_id')
            .whereRef('n.entry_id', '=', 'e.id')
            .where('n.slot', '=', freed.slot),
        ),
      ),
    )
    .orderBy('e.created_at')
    .orderBy('e.id')
    .limit(count);
  // The entries told are held until the freeing commits (PostgreSQL): a patient leaving the list
  // at that moment waits, or is passed over once gone. Read unheld, the entry of one who left
  // meanwhile got a notice that refers to nothing, and the whole freeing (a cancellation, a
  // move) failed with a 500. SQLite writes one transaction at a time.
  if (tx.getExecutor().adapter instanceof PostgresAdapter) query = query.forKeyShare('e');
  const waiting = await query.execute();
  if (waiting.length > 0) {
    await tx
      .insertInto('waitlist_notice')
      .values(
        waiting.map(({ entryId }) => ({
          entry_id: entryId,
          slot: freed.slot,
          told_at: now.toISOString(),
        })),
      )
      .execute();
  }
  return waiting;
}
