import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type AuditActor, doctorSubject, recordAudit } from '../audit/log.js';
import type { Database, Doctor } from '../db/schema.js';
import { isUniqueViolation } from '../db/unique-violation.js';

/**
 * Doctors' emails are kept in lowercase, like account emails, so that the unique index on
 * `doctor.email` refuses a second doctor whose address differs only in case.
 */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function listDoctors(db: Kysely<Database>): Promise<Doctor[]> {
  return db.selectFrom('doctor').selectAll().orderBy('name').orderBy('email').execute();
}

export type NewDoctorRecord = Pick<Doctor, 'name' | 'email' | 'specialty' | 'image_url'>;

/**
 * Adds a doctor, as `actor` asks, and records it in the audit log in the same transaction;
 * answers null (and records nothing) when a doctor with that email is already listed.
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
    created_at: new Date().toISOString(),
  };
  try {
    await db.transaction().execute(async (tx) => {
      await tx.insertInto('doctor').values(row).execute();
      await recordAudit(tx, {
        actor,
        action: 'doctor.added',
        subject: doctorSubject(row),
        after: { name: row.name, email: row.email, specialty: row.specialty, image: row.image_url },
      });
    });
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * Removes the doctor listed under `email`, as `actor` asks, recording it in the audit log in the
 * same transaction; answers the photo URL it had and whether another doctor still shows that
 * photo (then the stored image must stay), or null for no such doctor.
 */
export async function deleteDoctor(
  db: Kysely<Database>,
  email: string,
  actor: AuditActor,
): Promise<{ imageUrl: string; stillShown: boolean } | null> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('doctor')
      .where('email', '=', normaliseEmail(email))
      .returning(['id', 'name', 'email', 'specialty', 'image_url'])
      .executeTakeFirst();
    if (!removed) return null;
    await recordAudit(trx, {
      actor,
      action: 'doctor.deleted',
      subject: doctorSubject(removed),
      before: {
        name: removed.name,
        email: removed.email,
        specialty: removed.specialty,
        image: removed.image_url,
      },
    });
    const other = await trx
      .selectFrom('doctor')
      .select('id')
      .where('image_url', '=', removed.image_url)
      .executeTakeFirst();
    return { imageUrl: removed.image_url, stillShown: other !== undefined };
  });
}
