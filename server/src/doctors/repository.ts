import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
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

/** Adds a doctor; answers null when a doctor with that email is already listed. */
export async function insertDoctor(
  db: Kysely<Database>,
  doctor: NewDoctorRecord,
): Promise<string | null> {
  const id = randomUUID();
  try {
    await db
      .insertInto('doctor')
      .values({
        id,
        name: doctor.name,
        email: normaliseEmail(doctor.email),
        specialty: doctor.specialty,
        image_url: doctor.image_url,
        created_at: new Date().toISOString(),
      })
      .execute();
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/**
 * Removes the doctor listed under `email`; answers the photo URL it had and whether another
 * doctor still shows that photo (then the stored image must stay), or null for no such doctor.
 */
export async function deleteDoctor(
  db: Kysely<Database>,
  email: string,
): Promise<{ imageUrl: string; stillShown: boolean } | null> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('doctor')
      .where('email', '=', normaliseEmail(email))
      .returning('image_url')
      .executeTakeFirst();
    if (!removed) return null;
    const other = await trx
      .selectFrom('doctor')
      .select('id')
      .where('image_url', '=', removed.image_url)
      .executeTakeFirst();
    return { imageUrl: removed.image_url, stillShown: other !== undefined };
  });
}
