import fs from 'node:fs';
import path from 'node:path';
import { type Doctor, messages } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import {
  auditEntriesOf,
  filesIn,
  type Person,
  photoPng,
  signedUpAdmin,
  uploadImage,
  uploadsDir,
} from '../../test/admin-fixtures.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { doctorErrors } from './routes.js';

async function uploadedPhoto(app: FastifyInstance, admin: Person): Promise<string> {
  const response = await uploadImage(app, admin.token, {
    filename: 'doctor.png',
    contentType: 'image/png',
    data: await photoPng(128, 128),
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { data: { url: string } }).data.url;
}

const addDoctor = (app: FastifyInstance, admin: Person, doctor: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: '/api/doctor', headers: bearer(admin.token), payload: doctor });

const listDoctors = async (app: FastifyInstance, admin: Person) =>
  (
    await app.inject({ method: 'GET', url: '/api/doctor', headers: bearer(admin.token) })
  ).json() as Doctor[];

const deleteDoctor = (app: FastifyInstance, admin: Person, email: string) =>
  app.inject({
    method: 'DELETE',
    url: `/api/doctor/${encodeURIComponent(email)}`,
    headers: bearer(admin.token),
  });

describe(`the clinic's doctors (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let dir: string;

  beforeAll(async () => {
    t = await buildTestApp();
    dir = uploadsDir(t.config.dataDir);
    admin = await signedUpAdmin(t.app);
  });
  afterAll(() => t.close());

  it('adds a doctor with an uploaded photo (201 insertedId) and lists doctors by name', async () => {
    const photo = await uploadedPhoto(t.app, admin);
    const zara = await addDoctor(t.app, admin, {
      name: 'Zara Ahmed',
      email: 'zara@clinic.com',
      specialty: 'Teeth Whitening',
      image: photo,
    });
    expect(zara.statusCode).toBe(201);
    const { insertedId } = zara.json() as { insertedId: string };
    expect(insertedId).toEqual(expect.any(String));
    const adam = await addDoctor(t.app, admin, {
      name: 'Adam Smith',
      email: 'adam@clinic.com',
      specialty: 'Cavity Filling',
      image: await uploadedPhoto(t.app, admin),
    });
    expect(adam.statusCode).toBe(201);

    const doctors = await listDoctors(t.app, admin);

    expect(doctors.map((doctor) => doctor.name)).toEqual(['Adam Smith', 'Zara Ahmed']);
    expect(doctors[1]).toEqual({
      _id: insertedId,
      name: 'Zara Ahmed',
      email: 'zara@clinic.com',
      specialty: 'Teeth Whitening',
      image: photo,
      treatmentIds: ['teeth-whitening'],
      workDays: [0, 1, 2, 3, 4, 5, 6],
      daysOff: [],
    });
    const served = await t.app.inject(photo);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });

  it('refuses a second doctor with the same email, in any case (409)', async () => {
    const response = await addDoctor(t.app, admin, {
      name: 'Zara Again',
      email: 'ZARA@Clinic.com',
      specialty: 'Teeth Whitening',
      image: await uploadedPhoto(t.app, admin),
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      message: 'A doctor with this email is already listed.',
    });
  });

  it('lets only one of two identical requests at once add the doctor', async () => {
    const doctor = {
      name: 'Twin Request',
      email: 'twin@clinic.com',
      specialty: 'Fluoride Treatment',
      image: await uploadedPhoto(t.app, admin),
    };
    const answers = await Promise.all([
      addDoctor(t.app, admin, doctor),
      addDoctor(t.app, admin, doctor),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    await deleteDoctor(t.app, admin, doctor.email);
  });

  it('refuses a specialty that is not one of the services (400)', async () => {
    const response = await addDoctor(t.app, admin, {
      name: 'Dr. Nobody',
      email: 'nobody@clinic.com',
      specialty: 'Brain Surgery',
      image: await uploadedPhoto(t.app, admin),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: doctorErrors.unknownSpecialty('Brain Surgery'),
    });
  });

  it.each([
    'https://i.ibb.co/abc/doctor.png',
    'javascript:alert(1)',
    '/uploads/00000000-0000-4000-8000-000000000000.webp',
    '/uploads/../portal.db',
    '/api/users',
  ])('refuses an image the portal did not store: %s (400)', async (image) => {
    const response = await addDoctor(t.app, admin, {
      name: 'Dr. Elsewhere',
      email: 'elsewhere@clinic.com',
      specialty: 'Teeth Whitening',
      image,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: doctorErrors.foreignImage });
  });

  it.each([
    [{ email: 'a@clinic.com', specialty: 'Teeth Whitening', image: 'x' }, messages.nameRequired],
    [{ name: 'Dr. A', specialty: 'Teeth Whitening', image: 'x' }, messages.emailRequired],
    [
      { name: 'Dr. A', email: 'not-an-email', specialty: 'Teeth Whitening', image: 'x' },
      messages.emailInvalid,
    ],
    [
      { name: 'Dr. A', email: 'a@clinic.com', specialty: 'Teeth Whitening' },
      messages.imageRequired,
    ],
    [
      { name: 'Dr. A', email: 'a@clinic.com', specialty: 's'.repeat(101), image: 'x' },
      'Specialty must be 100 characters or shorter',
    ],
  ])('validates the form with the spec’s messages: %o → %s', async (doctor, message) => {
    const response = await addDoctor(t.app, admin, doctor);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message });
  });

  it('deletes a doctor (deletedCount 1) and the stored photo with it', async () => {
    const photo = await uploadedPhoto(t.app, admin);
    const name = photo.split('/').pop() ?? '';
    await addDoctor(t.app, admin, {
      name: 'Leaving Doctor',
      email: 'Leaving@Clinic.com',
      specialty: 'Cavity Filling',
      image: photo,
    });
    expect(fs.existsSync(path.join(dir, name))).toBe(true);
    const { id } = await t.db
      .selectFrom('doctor')
      .select('id')
      .where('email', '=', 'leaving@clinic.com')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('doctor_day_off')
      .values({ doctor_id: id, date: clinicDay(7) })
      .execute();

    const response = await deleteDoctor(t.app, admin, 'leaving@clinic.com');

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deletedCount: 1 });
    expect(fs.existsSync(path.join(dir, name))).toBe(false);
    expect((await t.app.inject(photo)).statusCode).toBe(404);
    const doctors = await listDoctors(t.app, admin);
    expect(doctors.map((doctor) => doctor.email)).not.toContain('leaving@clinic.com');
    // Its treatments and days off went with it.
    for (const table of ['doctor_treatment', 'doctor_day_off'] as const) {
      const left = await t.db.selectFrom(table).select('doctor_id').where('doctor_id', '=', id);
      expect(await left.execute(), table).toEqual([]);
    }
  });

  it('keeps a photo another doctor still shows', async () => {
    const photo = await uploadedPhoto(t.app, admin);
    for (const email of ['first@clinic.com', 'second@clinic.com']) {
      await addDoctor(t.app, admin, {
        name: 'Shared Photo',
        email,
        specialty: 'Cavity Filling',
        image: photo,
      });
    }
    await deleteDoctor(t.app, admin, 'first@clinic.com');
    expect((await t.app.inject(photo)).statusCode).toBe(200);
    await deleteDoctor(t.app, admin, 'second@clinic.com');
    expect((await t.app.inject(photo)).statusCode).toBe(404);
  });

  it('answers deletedCount 0 (200) for an email no doctor is listed under', async () => {
    const before = filesIn(dir).length;
    const response = await deleteDoctor(t.app, admin, 'ghost@clinic.com');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deletedCount: 0 });
    expect(filesIn(dir)).toHaveLength(before);
  });

  it('deletes a doctor once when two administrators delete them at the same moment: the other gets deletedCount 0', async () => {
    const photo = await uploadedPhoto(t.app, admin);
    const added = await addDoctor(t.app, admin, {
      name: 'Twice Deleted',
      email: 'twice@clinic.com',
      specialty: 'Teeth Cleaning',
      image: photo,
    });
    const id = (added.json() as { insertedId: string }).insertedId;
    const answers = await Promise.all([1, 2, 3].map(() => deleteDoctor(t.app, admin, id)));
    expect(answers.map((answer) => answer.json().deletedCount).sort()).toEqual([0, 0, 1]);
    expect(await auditEntriesOf(t.db, 'doctor.deleted', id)).toHaveLength(1);
  });

  it('applies each of two administrators’ changes of the same doctor’s lists at once, one after the other', async () => {
    const photo = await uploadedPhoto(t.app, admin);
    const added = await addDoctor(t.app, admin, {
      name: 'Both Edited',
      email: 'both@clinic.com',
      specialty: 'Teeth Cleaning',
      image: photo,
      daysOff: [clinicDay(10)],
    });
    const id = (added.json() as { insertedId: string }).insertedId;
    const changes = [
      { daysOff: [clinicDay(20), clinicDay(21)], treatmentIds: ['cavity-filling'] },
      { daysOff: [clinicDay(20), clinicDay(22)], treatmentIds: ['cavity-filling', 'oral-surgery'] },
      { daysOff: [clinicDay(21)], treatmentIds: ['fluoride-treatment'] },
      { daysOff: [clinicDay(20)], treatmentIds: ['cavity-filling'] },
    ];
    const answers = await Promise.all(
      changes.map((payload) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/doctor/${id}`,
          headers: bearer(admin.token),
          payload,
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    // The doctor holds one of the changes whole, and each audit entry starts from the state the
    // one before it left (no two start from the same lists).
    const [doctor] = (await listDoctors(t.app, admin)).filter((one) => one._id === id);
    expect(
      changes.some(
        (change) =>
          JSON.stringify(doctor?.daysOff) === JSON.stringify(change.daysOff) &&
          JSON.stringify(doctor?.treatmentIds) ===
            JSON.stringify(['teeth-cleaning', ...change.treatmentIds]),
      ),
    ).toBe(true);
    const entries = await auditEntriesOf(t.db, 'doctor.updated', id);
    const starts = entries.map((entry) => JSON.stringify(JSON.parse(entry.before ?? '{}').daysOff));
    expect(entries).toHaveLength(changes.length);
    expect(new Set(starts).size).toBe(changes.length);
  });
});
