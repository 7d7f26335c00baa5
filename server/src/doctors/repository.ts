import { randomUUID } from 'node:crypto';
import { EVERY_DAY, type IsoDate } from '@doctors-portal/contract';
import { type Kysely, PostgresAdapter } from 'kysely';
import { type AuditActor, doctorSubject, recordAudit } from '../audit/log.js';
import { forgetAvailabilityAnswers } from '../bookings/availability-cache.js';
import { compiledOnce } from '../db/compiled-once.js';
import type { Database, Doctor } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';

/**
 * Doctors' emails are kept in lowercase, like account emails, so that the unique index on
 * `doctor.email` refuses a second doctor whose address differs only in case.
 */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * A doctor with what they do and when (migrations/0009): the treatments they perform, in the
 * clinic's order (the specialty's first), the weekdays they work (0 = Sunday … 6), and their
 * dates off in order.
 */
export interface DoctorRecord extends Doctor {
  treatmentIds: string[];
  workDays: number[];
  daysOff: IsoDate[];
}

/** A doctor's `work_days` column as weekdays in order; every day when it cannot be read. */
export function parseWorkDays(text: string): number[] {
  try {
    const days = JSON.parse(text) as unknown;
    if (Array.isArray(days)) {
      return days.filter((day): day is number => Number.isInteger(day)).sort((a, b) => a - b);
    }
  } catch {
    // Fall through to the default.
  }
  return [...EVERY_DAY];
}

const workDaysText = (days: readonly number[]) =>
  JSON.stringify([...new Set(days)].sort((a, b) => a - b));

/** Every doctor by name, with their treatments, work days and dates off: three reads. */
export async function listDoctors(db: Kysely<Database>): Promise<DoctorRecord[]> {
  const [doctors, treatments, daysOff] = await Promise.all([
    db.selectFrom('doctor').selectAll().orderBy('name').orderBy('email').execute(),
    db
      .selectFrom('doctor_treatment')
      .select(['doctor_id', 'treatment_id'])
      .orderBy('doctor_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('doctor_day_off')
      .select(['doctor_id', 'date'])
      .orderBy('doctor_id')
      .orderBy('date')
      .execute(),
  ]);
  const group = <T>(rows: { doctor_id: string }[], value: (row: never) => T) => {
    const byDoctor = new Map<string, T[]>();
    for (const row of rows) {
      const list = byDoctor.get(row.doctor_id) ?? [];
      list.push(value(row as never));
      byDoctor.set(row.doctor_id, list);
    }
    return byDoctor;
  };
  const treatmentsOf = group(treatments, (row: { treatment_id: string }) => row.treatment_id);
  const daysOffOf = group(daysOff, (row: { date: IsoDate }) => row.date);
  return doctors.map((doctor) => ({
    ...doctor,
    treatmentIds: treatmentsOf.get(doctor.id) ?? [],
    workDays: parseWorkDays(doctor.work_days),
    daysOff: daysOffOf.get(doctor.id) ?? [],
  }));
}

/** One doctor by id with their treatments, work days and dates off; undefined for none. */
export async function findDoctor(
  db: Kysely<Database>,
  id: string,
): Promise<DoctorRecord | undefined> {
  const doctor = await db.selectFrom('doctor').selectAll().where('id', '=', id).executeTakeFirst();
  if (!doctor) return undefined;
  const [treatments, daysOff] = await Promise.all([
    db
      .selectFrom('doctor_treatment')
      .select('treatment_id')
      .where('doctor_id', '=', id)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('doctor_day_off')
      .select('date')
      .where('doctor_id', '=', id)
      .orderBy('date')
      .execute(),
  ]);
  return {
    ...doctor,
    treatmentIds: treatments.map((row) => row.treatment_id),
    workDays: parseWorkDays(doctor.work_days),
    daysOff: daysOff.map((row) => row.date),
  };
}

/**
 * Makes the changes of one doctor within `tx` wait for one another (PostgreSQL; SQLite writes
 * one transaction at a time) until `tx` ends. Each deletes rows of the doctor's (treatments,
 * days off, calendar feed) and inserts the new ones: two at once each deleted the rows as they
 * read them, and the second insert met the first's (a 500), while both audited the same
 * "before". `NO KEY UPDATE` leaves the bookings that read the doctor to go on.
 */
export async function lockDoctor(tx: Kysely<Database>, id: string): Promise<void> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await tx.selectFrom('doctor').select('id').where('id', '=', id).forNoKeyUpdate().execute();
}

/** Whether a doctor is listed under `id`. */
export async function doctorExists(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db.selectFrom('doctor').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * A doctor as the API shows them (which adds the id) and as the audit log records them, before
 * or after a change.
 */
export function doctorFields(doctor: DoctorRecord) {
  return {
    name: doctor.name,
    email: doctor.email,
    specialty: doctor.specialty,
    image: doctor.image_url,
    treatmentIds: doctor.treatmentIds,
    workDays: doctor.workDays,
    daysOff: doctor.daysOff,
  };
}

async function writeTreatments(tx: Kysely<Database>, doctorId: string, treatmentIds: string[]) {
  await tx.deleteFrom('doctor_treatment').where('doctor_id', '=', doctorId).execute();
  if (treatmentIds.length === 0) return;
  await tx
    .insertInto('doctor_treatment')
    .values(
      treatmentIds.map((treatmentId, position) => ({
        doctor_id: doctorId,
        treatment_id: treatmentId,
        position,
      })),
    )
    .execute();
}

async function writeDaysOff(tx: Kysely<Database>, doctorId: string, daysOff: IsoDate[]) {
  await tx.deleteFrom('doctor_day_off').where('doctor_id', '=', doctorId).execute();
  if (daysOff.length === 0) return;
  await tx
    .insertInto('doctor_day_off')
    .values(daysOff.map((date) => ({ doctor_id: doctorId, date })))
    .execute();
}

/** What a new doctor is made of: the spec's fields, the treatments, work days and dates off. */
export interface NewDoctorRecord {
  name: string;
  email: string;
  specialty: string;
  image_url: string;
  treatmentIds: string[];
  workDays: number[];
  daysOff: IsoDate[];
}

/**
 * Adds a doctor, as `actor` asks, and records it in the audit log in the same transaction;
 * answers null (and records nothing) when a doctor with that email is already listed. Like every
 * change of the doctors here, once committed it makes this instance forget the availability
 * answers it kept: who works when decides them.
 */
export async function insertDoctor(
  db: Kysely<Database>,
  doctor: NewDoctorRecord,
  actor: AuditActor,
): Promise<string | null> {
  const id = randomUUID();
  const row = {
    id,
    name: doctor.name,
    email: normaliseEmail(doctor.email),
    specialty: doctor.specialty,
    image_url: doctor.image_url,
    work_days: workDaysText(doctor.workDays),
    created_at: new Date().toISOString(),
  };
  try {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('doctor').values(row).execute();
      await writeTreatments(tx, id, doctor.treatmentIds);
      await writeDaysOff(tx, id, doctor.daysOff);
      await recordAudit(tx, {
        actor,
        action: 'doctor.added',
        subject: doctorSubject(row),
        after: { name: row.name, email: row.email, specialty: row.specialty, image: row.image_url },
      });
    });
    forgetAvailabilityAnswers();
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** What `PATCH /api/doctor/{id}` changes; a list given replaces the stored one. */
export interface DoctorChanges {
  name?: string | undefined;
  specialty?: string | undefined;
  image_url?: string | undefined;
  treatmentIds?: string[] | undefined;
  workDays?: number[] | undefined;
  daysOff?: IsoDate[] | undefined;
}

/**
 * Changes a doctor, as `actor` asks, recording the fields before and after in the audit log in
 * the same transaction (nothing is recorded when nothing changed). Answers the doctor as they
 * are now and the photo they showed before, or null for no such doctor.
 */
export async function updateDoctor(
  db: Kysely<Database>,
  id: string,
  changes: DoctorChanges,
  actor: AuditActor,
): Promise<{ before: DoctorRecord; after: DoctorRecord } | null> {
  const changed = await db.transaction().execute(async (tx) => {
    await lockDoctor(tx, id);
    const before = await findDoctor(tx, id);
    if (!before) return null;
    const columns = {
      ...(changes.name !== undefined && { name: changes.name }),
      ...(changes.specialty !== undefined && { specialty: changes.specialty }),
      ...(changes.image_url !== undefined && { image_url: changes.image_url }),
      ...(changes.workDays !== undefined && { work_days: workDaysText(changes.workDays) }),
    };
    if (Object.keys(columns).length > 0) {
      await tx.updateTable('doctor').set(columns).where('id', '=', id).execute();
    }
    if (changes.treatmentIds !== undefined) await writeTreatments(tx, id, changes.treatmentIds);
    if (changes.daysOff !== undefined) await writeDaysOff(tx, id, changes.daysOff);
    const after = (await findDoctor(tx, id)) as DoctorRecord;
    const was = doctorFields(before);
    const is = doctorFields(after);
    const changed = (Object.keys(is) as (keyof typeof is)[]).filter(
      (key) => JSON.stringify(was[key]) !== JSON.stringify(is[key]),
    );
    if (changed.length > 0) {
      await recordAudit(tx, {
        actor,
        action: 'doctor.updated',
        subject: doctorSubject(after),
        before: Object.fromEntries(changed.map((key) => [key, was[key]])),
        after: Object.fromEntries(changed.map((key) => [key, is[key]])),
      });
    }
    return { before, after };
  });
  if (changed) forgetAvailabilityAnswers();
  return changed;
}

/** Whether any doctor still shows the photo at `imageUrl`. */
export async function photoShown(db: Kysely<Database>, imageUrl: string): Promise<boolean> {
  const row = await db
    .selectFrom('doctor')
    .select('id')
    .where('image_url', '=', imageUrl)
    .executeTakeFirst();
  return row !== undefined;
}

/** A live booking from the clinic's today on that keeps a doctor from being removed. */
export interface HeldBooking {
  id: string;
  date: IsoDate;
  slot: string;
  patient_name: string;
}

export type DoctorRemoval =
  | { removed: false; reason: 'unknown' }
  | { removed: false; reason: 'booked'; bookings: HeldBooking[] }
  | { removed: true; imageUrl: string; stillShown: boolean };

/**
 * Removes the doctor listed under `email` (or with that id), as `actor` asks, recording it in the audit log in the
 * same transaction; answers the photo URL it had and whether another doctor still shows that
 * photo (then the stored image must stay). A doctor who holds live bookings from `today` on
 * stays (those bookings are answered); `bookingsWith` reads them inside the transaction.
 */
export async function deleteDoctor(
  db: Kysely<Database>,
  email: string,
  actor: AuditActor,
  bookingsWith: (tx: Kysely<Database>, doctorId: string) => Promise<HeldBooking[]>,
): Promise<DoctorRemoval> {
  const removal = await db.transaction().execute(async (trx): Promise<DoctorRemoval> => {
    const doctor = await trx
      .selectFrom('doctor')
      .select('id')
      .where((eb) => eb.or([eb('email', '=', normaliseEmail(email)), eb('id', '=', email)]))
      .executeTakeFirst();
    if (!doctor) return { removed: false, reason: 'unknown' };
    const record = (await findDoctor(trx, doctor.id)) as DoctorRecord;
    const bookings = await bookingsWith(trx, doctor.id);
    if (bookings.length > 0) return { removed: false, reason: 'booked', bookings };
    // Its treatments, days off and calendar feed go with it (foreign keys cascade).
    const { numDeletedRows } = await trx
      .deleteFrom('doctor')
      .where('id', '=', doctor.id)
      .executeTakeFirst();
    // Another administrator's removal at the same moment (PostgreSQL) read the doctor too: only
    // the one whose delete found them removes them and audits it.
    if (numDeletedRows === 0n) return { removed: false, reason: 'unknown' };
    await recordAudit(trx, {
      actor,
      action: 'doctor.deleted',
      subject: doctorSubject(record),
      before: {
        name: record.name,
        email: record.email,
        specialty: record.specialty,
        image: record.image_url,
      },
    });
    return {
      removed: true,
      imageUrl: record.image_url,
      stillShown: await photoShown(trx, record.image_url),
    };
  });
  if (removal.removed) forgetAvailabilityAnswers();
  return removal;
}

/** A doctor who performs a treatment, as availability and booking weigh them. */
export interface Provider {
  id: string;
  name: string;
  image: string;
  workDays: number[];
  treatmentId: string;
}

/** Every (doctor, treatment) pair: compiled once, as every booking reads it. */
const providerRows = compiledOnce((db: Kysely<Database>) =>
  db
    .selectFrom('doctor_treatment')
    .innerJoin('doctor', 'doctor.id', 'doctor_treatment.doctor_id')
    .select(['doctor.id', 'doctor.name', 'doctor.image_url as image', 'doctor.work_days'])
    .select('doctor_treatment.treatment_id as treatmentId')
    .orderBy('doctor.name')
    .orderBy('doctor.id'),
);

/**
 * Every (doctor, treatment) pair the clinic set, in a stable order (the doctor's name, then id):
 * one read of `doctor_treatment` joined with `doctor`, a table of a few rows per doctor.
 */
export async function listProviders(db: Kysely<Database>): Promise<Provider[]> {
  const rows = await providerRows(db);
  return rows.map(({ work_days, ...provider }) => ({
    ...provider,
    workDays: parseWorkDays(work_days),
  }));
}

/** The date's entries of the (date, doctor) index of days off: compiled once, as `providerRows`. */
const doctorsOffRows = compiledOnce((db: Kysely<Database>, date: IsoDate) =>
  db.selectFrom('doctor_day_off').select('doctor_id').where('date', '=', date),
);

/** The doctors off on `date`. */
export async function doctorsOffOn(db: Kysely<Database>, date: IsoDate): Promise<Set<string>> {
  const rows = await doctorsOffRows(db, date);
  return new Set(rows.map((row) => row.doctor_id));
}

/** The doctors off on each day from `from` to `to`, by date (the same index, as a range). */
export async function doctorsOffBetween(
  db: Kysely<Database>,
  from: IsoDate,
  to: IsoDate,
): Promise<Map<IsoDate, Set<string>>> {
  const rows = await db
    .selectFrom('doctor_day_off')
    .select(['date', 'doctor_id'])
    .where('date', '>=', from)
    .where('date', '<=', to)
    .execute();
  const off = new Map<IsoDate, Set<string>>();
  for (const row of rows) {
    const date = row.date as IsoDate;
    off.set(date, (off.get(date) ?? new Set()).add(row.doctor_id));
  }
  return off;
}
