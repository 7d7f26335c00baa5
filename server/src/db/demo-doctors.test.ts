import type { AvailableTreatment, Doctor } from '@doctors-portal/contract';
import { weekdayOf } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { type Person, signedUpAdmin } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { demoTreatments } from './demo-data.js';
import { demoDoctors, seedDemoDoctors } from './demo-doctors.js';

describe(`the demo doctors (${engine})`, () => {
  let t: TestApp;
  let admin: Person;

  const doctors = async () =>
    (
      await t.app.inject({ method: 'GET', url: '/api/doctor', headers: bearer(admin.token) })
    ).json() as Doctor[];
  const available = async (day: number) =>
    (
      await t.app.inject(`/api/available?date=${encodeURIComponent(mediumDay(day))}`)
    ).json() as AvailableTreatment[];

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
  });
  afterAll(() => t?.close());

  it('adds a few doctors with stored portraits to a fresh portal, at most one per treatment', async () => {
    const started = Date.now();
    expect(await seedDemoDoctors(t.db, t.app.images)).toEqual({ inserted: demoDoctors.length });
    expect(Date.now() - started).toBeLessThan(5000);

    const listed = await doctors();
    expect(listed.map((doctor) => doctor.name).sort()).toEqual(
      demoDoctors.map((doctor) => doctor.name).sort(),
    );
    for (const doctor of listed) {
      expect(doctor.treatmentIds).toHaveLength(1);
      const photo = await t.app.inject(doctor.image);
      expect(photo.statusCode, doctor.image).toBe(200);
      expect(photo.headers['content-type']).toBe('image/webp');
      expect(t.app.images.nameOf(doctor.image)).not.toBeNull();
    }
    const performed = listed.flatMap((doctor) => doctor.treatmentIds);
    expect(new Set(performed).size).toBe(performed.length);
    // Some treatments keep no doctor: they are offered as before, every open day.
    const without = demoTreatments.filter((treatment) => !performed.includes(treatment.id));
    expect(without.map((treatment) => treatment.id)).toEqual(
      expect.arrayContaining(['teeth-cleaning', 'cavity-filling', 'teeth-whitening']),
    );
    expect(new Set(listed.map((doctor) => doctor.workDays.join())).size).toBeGreaterThan(1);
  });

  it('offers a treatment with a doctor on that doctor’s work days only, and the others as before', async () => {
    const listed = await doctors();
    const orthodontist = listed.find((doctor) => doctor.specialty === 'Teeth Orthodontics');
    expect(orthodontist?.workDays).toEqual([1, 2, 3, 4, 5]);
    for (let day = 1; day <= 7; day += 1) {
      const answer = await available(day);
      const slots = (id: string) => answer.find((treatment) => treatment._id === id)?.slots ?? [];
      const weekday = weekdayOf(clinicDay(day));
      expect(slots('teeth-orthodontics').length > 0, `weekday ${weekday}`).toBe(
        weekday >= 1 && weekday <= 5,
      );
      const cleaning = demoTreatments.find((treatment) => treatment.id === 'teeth-cleaning');
      expect(slots('teeth-cleaning')).toEqual(JSON.parse(String(cleaning?.slots)));
    }
  });

  it('adds nothing when run again, nor after the clinic removed a demo doctor', async () => {
    expect(await seedDemoDoctors(t.db, t.app.images)).toEqual({ inserted: 0 });
    const [first] = await doctors();
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/doctor/${first?._id}`,
      headers: bearer(admin.token),
    });
    expect(removed.json()).toEqual({ deletedCount: 1 });
    expect(await seedDemoDoctors(t.db, t.app.images)).toEqual({ inserted: 0 });
    expect(await doctors()).toHaveLength(demoDoctors.length - 1);
  });
});
