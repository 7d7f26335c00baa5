import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { photoPng, uploadImage } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { signedUpAdmin } from '../../test/payment-fixtures.js';

/**
 * Races between a patient's booking or move and another change to the same slot, chair or
 * patient: whatever the order the engine runs them in, no chair, doctor or patient is booked
 * twice at overlapping times, and no answer is a 500. A move's own rules are in
 * reschedule.test.ts, a doctor's in providers.test.ts.
 */

interface P {
  id: string;
  token: string;
}

const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

describe(`bookings, moves and the clinic's changes at the same moment (${engine})`, () => {
  let t: TestApp;
  let admin: { token: string };
  let photo: string;
  let crowd: P[];
  let next = 0;
  const p = () => crowd[next++] as P;

  const book = (who: P, fields: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(who.token),
      payload: { phone: '+1 555 010 2030', age: 34, ...fields },
    });
  const bookOk = async (who: P, fields: Record<string, unknown>) => {
    const response = await book(who, fields);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().booking as { _id: string };
  };
  const move = (who: P, id: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/booking/${id}/reschedule`,
      headers: bearer(who.token),
      payload: body,
    });
  const addDoctor = async (fields: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/doctor',
      headers: bearer(admin.token),
      payload: { image: photo, ...fields },
    });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { insertedId: string }).insertedId;
  };
  const patchDoctor = async (id: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/doctor/${id}`,
      headers: bearer(admin.token),
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  /** The live bookings of a treatment's slot on a date. */
  const holders = (treatmentId: string, day: number, slot: string) =>
    t.db
      .selectFrom('booking')
      .select(['id', 'doctor_id'])
      .where('treatment_id', '=', treatmentId)
      .where('date', '=', clinicDay(day))
      .where('slot', '=', slot)
      .where('status', '<>', 'cancelled')
      .execute();

  beforeAll(async () => {
    t = await buildTestApp({ env: { MAIL_RATE: '1000' } });
    admin = await signedUpAdmin(t);
    const upload = await uploadImage(t.app, admin.token, {
      filename: 'doctor.png',
      contentType: 'image/png',
      data: await photoPng(64, 64),
    });
    photo = (upload.json() as { data: { url: string } }).data.url;
    const people = await seedPatients(t.db, engine, 40);
    crowd = await Promise.all(
      people.map(async (person) => ({
        id: person.userId,
        token: (await t.app.accessTokens.issue(person)).token,
      })),
    );
  });
  afterAll(() => t?.close());

  it('a patient swapping the times of two of their own bookings at once gets 409s, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const day = 300 + round;
      const patient = p();
      const cleaning = await bookOk(patient, {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(day),
        slot: TEN,
      });
      const fluoride = await bookOk(patient, {
        treatmentId: 'fluoride-treatment',
        date: mediumDay(day),
        slot: ELEVEN,
      });
      const answers = await Promise.all([
        move(patient, cleaning._id, { date: mediumDay(day), slot: ELEVEN }),
        move(patient, fluoride._id, { date: mediumDay(day), slot: TEN }),
      ]);
      // One after the other, each finds the other booking still in its way: 409 and 409.
      expect(
        answers.map((answer) => answer.statusCode),
        answers.map((answer) => answer.body).join('\n'),
      ).toEqual([409, 409]);
    }
  });

  it.runIf(engine === 'postgres')(
    'a slot booked without a doctor is not booked again with one when the clinic assigns a doctor meanwhile',
    async () => {
      const day = 320;
      const slot = '11:00 AM - 12:00 PM';
      // Cavity filling has no doctor yet: one chair.
      const dan = await addDoctor({ name: 'Dan', email: 'dan@c.com', specialty: 'Oral Surgery' });
      const [first, second] = [p(), p()];
      const url = (t.config.database as { url: string }).url;
      const blocker = new pg.Client({ connectionString: url });
      await blocker.connect();
      const waiting = async (count: number) => {
        for (let tries = 0; tries < 200; tries++) {
          const { rows } = await blocker.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (rows[0].n >= count) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        throw new Error(`never ${count} waiting`);
      };
      try {
        // Hold each booking's transaction open after its booking row is written (its mail's
        // insert waits), as a slow commit would.
        await blocker.query('begin');
        await blocker.query('lock table mail_queue in exclusive mode');
        const withoutDoctor = book(first, {
          treatmentId: 'cavity-filling',
          date: mediumDay(day),
          slot,
        });
        await waiting(1);
        // Meanwhile the clinic has Dan perform cavity fillings.
        await patchDoctor(dan, { treatmentIds: ['oral-surgery', 'cavity-filling'] });
        const withDoctor = book(second, {
          treatmentId: 'cavity-filling',
          date: mediumDay(day),
          slot,
        });
        await waiting(2);
        await blocker.query('commit');
        const answers = await Promise.all([withoutDoctor, withDoctor]);
        const held = await holders('cavity-filling', day, slot);
        // The booking without a doctor holds the slot's chair (decision 020): one booking.
        expect(
          { codes: answers.map((answer) => answer.statusCode), held: held.length },
          JSON.stringify(held),
        ).toEqual({ codes: [201, 409], held: 1 });
      } finally {
        await blocker.query('rollback').catch(() => undefined);
        await blocker.end();
      }
    },
  );

  it('a slot the clinic removes while a booking or a move takes it is not left held beside an overlapping new slot', async () => {
    // Pediatric Dental: no doctor performs it, so one chair; its slots never overlap.
    const original = [
      '3:00 PM - 3:30 PM',
      '3:30 PM - 4:00 PM',
      '4:00 PM - 4:30 PM',
      '4:30 PM - 5:00 PM',
      '5:00 PM - 5:30 PM',
      '5:30 PM - 6:00 PM',
      '6:00 PM - 6:30 PM',
      '6:30 PM - 7:00 PM',
    ];
    const THREE = '3:00 PM - 3:30 PM';
    const QUARTER_PAST = '3:15 PM - 3:45 PM';
    const changed = [QUARTER_PAST, ...original.slice(2)];
    const setSlots = (slots: string[]) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/treatments/pediatric-dental',
        headers: bearer(admin.token),
        payload: { slots },
      });
    const doubled: string[] = [];
    for (const how of ['book', 'move'] as const) {
      const day = how === 'book' ? 330 : 331;
      const [patient, other] = [p(), p()];
      const earlier =
        how === 'move'
          ? await bookOk(patient, {
              treatmentId: 'pediatric-dental',
              date: mediumDay(day + 10),
              slot: '5:00 PM - 5:30 PM',
            })
          : undefined;
      const racing = earlier
        ? move(patient, earlier._id, { date: mediumDay(day), slot: THREE })
        : book(patient, { treatmentId: 'pediatric-dental', date: mediumDay(day), slot: THREE });
      // The clinic replaces 3:00 and 3:30 by 3:15 while the patient takes 3:00.
      const [taken, edited] = await Promise.all([racing, setSlots(changed)]);
      const late = await book(other, {
        treatmentId: 'pediatric-dental',
        date: mediumDay(day),
        slot: QUARTER_PAST,
      });
      const held = await t.db
        .selectFrom('booking')
        .select('slot')
        .where('treatment_id', '=', 'pediatric-dental')
        .where('date', '=', clinicDay(day))
        .where('status', '<>', 'cancelled')
        .execute();
      // Either the edit is refused (3:00 is held) or the patient is: never 3:00 and 3:15 both
      // booked on the one chair.
      const slots = held.map((row) => row.slot).sort();
      if (slots.includes(THREE) && slots.includes(QUARTER_PAST)) {
        doubled.push(
          `${how}: ${taken.statusCode}, edit ${edited.statusCode}, 3:15 ${late.statusCode}`,
        );
      }
      // Put the slots back for the next round (cancel the day's bookings first).
      const live = await t.db
        .selectFrom('booking')
        .select(['id', 'patient_id'])
        .where('treatment_id', '=', 'pediatric-dental')
        .where('status', '<>', 'cancelled')
        .execute();
      for (const row of live) {
        const owner = crowd.find((one) => one.id === row.patient_id) as P;
        await t.app.inject({
          method: 'DELETE',
          url: `/api/booking/${row.id}`,
          headers: bearer(owner.token),
        });
      }
      expect((await setSlots(original)).statusCode).toBe(200);
    }
    expect(doubled).toEqual([]);
  });
});
