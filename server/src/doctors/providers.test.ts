import { randomUUID } from 'node:crypto';
import {
  type AvailableDoctor,
  type AvailableTreatment,
  type Booking,
  type Doctor,
  type IsoDate,
  messages,
  slotUnits,
  weekdayOf,
} from '@doctors-portal/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, seedPatients } from '../../test/accounts.js';
import { type Person, photoPng, signedUpAdmin, uploadImage } from '../../test/admin-fixtures.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { insertRows, queryPlan } from '../../test/query-plans.js';
import { bookingErrors } from '../bookings/errors.js';
import { doctorUnitsQuery } from '../bookings/repository.js';
import { bookingConfirmationEmail } from '../mail/templates.js';
import { doctorErrors } from './routes.js';

interface Patient {
  name: string;
  token: string;
}

const CLEANING_10 = '10:00 AM - 10:30 AM';

describe(`doctors as providers (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let photo: string;
  let crowd: Patient[];
  let alice: string;
  let bea: string;

  const patient = (index: number) => crowd[index] as Patient;

  const addDoctor = async (fields: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/doctor',
      headers: bearer(admin.token),
      payload: { image: photo, ...fields },
    });
    expect(response.statusCode).toBe(201);
    return (response.json() as { insertedId: string }).insertedId;
  };
  const patchDoctor = (id: string, payload: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/doctor/${id}`,
      headers: bearer(admin.token),
      payload,
    });
  const listDoctors = async () =>
    (
      await t.app.inject({ method: 'GET', url: '/api/doctor', headers: bearer(admin.token) })
    ).json() as Doctor[];
  const book = (who: Patient, fields: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(who.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        slot: CLEANING_10,
        phone: '+1 555 010 2030',
        age: 34,
        ...fields,
      },
    });
  const cancel = async (who: Patient, id: string) => {
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${id}`,
      headers: bearer(who.token),
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const available = async (day: number, doctor?: string) => {
    const query = new URLSearchParams({ date: mediumDay(day), ...(doctor && { doctor }) });
    const response = await t.app.inject(`/api/available?${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as AvailableTreatment[];
  };
  const slotsOf = (answer: AvailableTreatment[], treatmentId: string) =>
    answer.find((treatment) => treatment._id === treatmentId)?.slots ?? [];
  const freeDoctors = async (treatmentId: string, day: number, slot: string) => {
    const query = new URLSearchParams({ treatmentId, date: mediumDay(day), slot });
    const response = await t.app.inject(`/api/doctors/available?${query}`);
    expect(response.statusCode).toBe(200);
    return (response.json() as AvailableDoctor[]).map((doctor) => doctor.name);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
    const upload = await uploadImage(t.app, admin.token, {
      filename: 'doctor.png',
      contentType: 'image/png',
      data: await photoPng(64, 64),
    });
    photo = (upload.json() as { data: { url: string } }).data.url;
    const people = await seedPatients(t.db, engine, 200);
    crowd = await Promise.all(
      people.map(async (person) => ({
        name: person.name,
        token: (await t.app.accessTokens.issue(person)).token,
      })),
    );
    alice = await addDoctor({
      name: 'Alice Adams',
      email: 'alice@clinic.com',
      specialty: 'Teeth Cleaning',
      treatmentIds: ['cavity-filling', 'fluoride-treatment'],
    });
    bea = await addDoctor({
      name: 'Bea Brown',
      email: 'bea@clinic.com',
      specialty: 'Teeth Cleaning',
      workDays: [1, 2, 3, 4, 5, 6, 0],
    });
  });
  afterAll(() => t?.close());

  it('lists each doctor with the treatments they perform (the specialty’s first), work days and days off', async () => {
    const doctors = await listDoctors();
    expect(doctors.find((doctor) => doctor._id === alice)).toEqual({
      _id: alice,
      name: 'Alice Adams',
      email: 'alice@clinic.com',
      specialty: 'Teeth Cleaning',
      image: photo,
      treatmentIds: ['teeth-cleaning', 'cavity-filling', 'fluoride-treatment'],
      workDays: [0, 1, 2, 3, 4, 5, 6],
      daysOff: [],
    });
    expect(doctors.find((doctor) => doctor._id === bea)).toMatchObject({
      treatmentIds: ['teeth-cleaning'],
      workDays: [0, 1, 2, 3, 4, 5, 6],
    });
  });

  it('changes a doctor with PATCH, keeping the specialty’s treatment first, and audits it', async () => {
    const id = await addDoctor({
      name: 'Carl Cole',
      email: 'carl@clinic.com',
      specialty: 'Teeth Whitening',
    });
    const response = await patchDoctor(id, {
      name: 'Carl Cole DDS',
      treatmentIds: ['oral-surgery'],
      workDays: [5, 1, 3],
      daysOff: [clinicDay(40), clinicDay(30), clinicDay(30)],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      _id: id,
      name: 'Carl Cole DDS',
      email: 'carl@clinic.com',
      specialty: 'Teeth Whitening',
      image: photo,
      treatmentIds: ['teeth-whitening', 'oral-surgery'],
      workDays: [1, 3, 5],
      daysOff: [clinicDay(30), clinicDay(40)],
      // No booking is with Carl yet, so none is left on a day he is away.
      bookings: [],
    });
    // A new specialty's treatment goes first; the others stay.
    const moved = await patchDoctor(id, { specialty: 'Pediatric Dental' });
    expect(moved.json()).toMatchObject({
      specialty: 'Pediatric Dental',
      treatmentIds: ['pediatric-dental', 'teeth-whitening', 'oral-surgery'],
    });
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'doctor.updated')
      .where('subject_id', '=', id)
      .orderBy('at')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.before ?? '{}')).toMatchObject({
      name: 'Carl Cole',
      workDays: [0, 1, 2, 3, 4, 5, 6],
      daysOff: [],
    });
    expect(JSON.parse(entry.after ?? '{}')).toMatchObject({
      name: 'Carl Cole DDS',
      workDays: [1, 3, 5],
      treatmentIds: ['teeth-whitening', 'oral-surgery'],
    });
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: '/api/doctor/carl%40clinic.com',
          headers: bearer(admin.token),
        })
      ).json(),
    ).toEqual({ deletedCount: 1 });
  });

  it.each([
    [{ treatmentIds: ['brain-surgery'] }, doctorErrors.unknownTreatment('brain-surgery')],
    [{ workDays: [7] }, 'A work day is a whole number from 0 (Sunday) to 6 (Saturday).'],
    [{ workDays: [1, 1] }, 'Each day of the week may be listed once.'],
    [{ daysOff: ['2031-02-30'] }, 'Provide a real date in the form 2022-01-05'],
    [{ specialty: 'Brain Surgery' }, doctorErrors.unknownSpecialty('Brain Surgery')],
    [{}, 'Send at least one of name, specialty, image, treatmentIds, workDays or daysOff.'],
  ])('refuses %o (400)', async (payload, message) => {
    const response = await patchDoctor(alice, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('answers 404 for a doctor it does not know', async () => {
    const response = await patchDoctor(randomUUID(), { name: 'Nobody' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: doctorErrors.noSuchDoctor });
  });

  it('lets exactly two of 200 concurrent bookings of a slot two doctors can take succeed, one with each', async () => {
    const responses = await Promise.all(
      crowd.map((who) => book(who, { date: mediumDay(90), slot: CLEANING_10 })),
    );
    const won = responses.filter((response) => response.statusCode === 201);
    expect(won).toHaveLength(2);
    const doctors = won.map((response) => (response.json() as { booking: Booking }).booking.doctor);
    expect(doctors.map((doctor) => doctor?._id).sort()).toEqual([alice, bea].sort());
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ reason: 'slot', message: messages.slotTaken });
    }
    const units = await t.db
      .selectFrom('doctor_unit')
      .selectAll()
      .where('date', '=', clinicDay(90))
      .execute();
    expect(units).toHaveLength(2 * slotUnits(CLEANING_10).length);
    expect(slotsOf(await available(90), 'teeth-cleaning')).not.toContain(CLEANING_10);
    expect(await freeDoctors('teeth-cleaning', 90, CLEANING_10)).toEqual([]);
  });

  it('blocks the overlapping half-hour slots for the doctor booked for an hour, and not for another', async () => {
    const filling = await book(patient(0), {
      treatmentId: 'cavity-filling',
      slot: '11:00 AM - 12:00 PM',
      date: mediumDay(91),
    });
    expect(filling.statusCode).toBe(201);
    expect((filling.json() as { booking: Booking }).booking.doctor).toEqual({
      _id: alice,
      name: 'Alice Adams',
    });
    const aliceSlots = slotsOf(await available(91, alice), 'teeth-cleaning');
    expect(aliceSlots).not.toContain('11:00 AM - 11:30 AM');
    expect(aliceSlots).not.toContain('11:30 AM - 12:00 PM');
    expect(aliceSlots).toContain('10:30 AM - 11:00 AM');
    expect(aliceSlots).toContain('12:00 PM - 12:30 PM');
    expect(slotsOf(await available(91, bea), 'teeth-cleaning')).toContain('11:30 AM - 12:00 PM');
    // Bea does not perform fillings: narrowed to her, the treatment has no slots.
    expect(slotsOf(await available(91, bea), 'cavity-filling')).toEqual([]);
    expect(slotsOf(await available(91), 'teeth-cleaning')).toContain('11:30 AM - 12:00 PM');
    expect(await freeDoctors('teeth-cleaning', 91, '11:30 AM - 12:00 PM')).toEqual(['Bea Brown']);

    const withAlice = await book(patient(1), {
      slot: '11:30 AM - 12:00 PM',
      date: mediumDay(91),
      doctorId: alice,
    });
    expect(withAlice.statusCode).toBe(409);
    expect(withAlice.json().message).toBe(
      bookingErrors.doctorBusy('Alice Adams', '11:30 AM - 12:00 PM'),
    );
    const anyone = await book(patient(1), { slot: '11:30 AM - 12:00 PM', date: mediumDay(91) });
    expect(anyone.statusCode).toBe(201);
    expect((anyone.json() as { booking: Booking }).booking.doctor?._id).toBe(bea);
    expect(slotsOf(await available(91), 'teeth-cleaning')).not.toContain('11:30 AM - 12:00 PM');
  });

  it('frees the doctor’s time when the booking is cancelled', async () => {
    const made = await book(patient(2), { date: mediumDay(92), doctorId: bea });
    const { booking } = made.json() as { booking: Booking };
    expect(booking.doctor?._id).toBe(bea);
    expect(slotsOf(await available(92, bea), 'teeth-cleaning')).not.toContain(CLEANING_10);
    const cancelled = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${booking._id}`,
      headers: bearer(patient(2).token),
    });
    expect(cancelled.statusCode).toBe(200);
    const units = await t.db
      .selectFrom('doctor_unit')
      .selectAll()
      .where('booking_id', '=', booking._id)
      .execute();
    expect(units).toEqual([]);
    expect(slotsOf(await available(92, bea), 'teeth-cleaning')).toContain(CLEANING_10);
  });

  it('offers none of a doctor’s slots on a day off or a weekday they do not work', async () => {
    const dayOff = 93;
    const notWorking = 94;
    const patched = await patchDoctor(bea, {
      daysOff: [clinicDay(dayOff)],
      workDays: [0, 1, 2, 3, 4, 5, 6].filter((day) => day !== weekdayOf(clinicDay(notWorking))),
    });
    expect(patched.statusCode).toBe(200);
    for (const day of [dayOff, notWorking]) {
      expect(slotsOf(await available(day, bea), 'teeth-cleaning')).toEqual([]);
      expect(await freeDoctors('teeth-cleaning', day, CLEANING_10)).toEqual(['Alice Adams']);
      const refused = await book(patient(3), { date: mediumDay(day), doctorId: bea });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        bookingErrors.doctorNotWorking('Bea Brown', mediumDay(day)),
      );
    }
    // With both off, the treatment has no slots; one no doctor performs keeps its own.
    await patchDoctor(alice, { daysOff: [clinicDay(dayOff)] });
    const answer = await available(dayOff);
    expect(slotsOf(answer, 'teeth-cleaning')).toEqual([]);
    expect(slotsOf(answer, 'teeth-whitening').length).toBeGreaterThan(0);
    const none = await book(patient(3), { date: mediumDay(dayOff) });
    expect(none.statusCode).toBe(409);
    // Nobody took it: the answer says no dentist is in, not that someone booked it first.
    expect(none.json()).toMatchObject({
      reason: 'slot',
      message: bookingErrors.noDentistThatDay('Teeth Cleaning', mediumDay(dayOff)),
    });
    // Nor can a visit be moved there, for the same reason.
    const kept = await book(patient(3), { date: mediumDay(110) });
    expect(kept.statusCode, kept.body).toBe(201);
    const keptId = (kept.json() as { booking: Booking }).booking._id;
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${keptId}/reschedule`,
      headers: bearer(patient(3).token),
      payload: { date: mediumDay(dayOff), slot: CLEANING_10 },
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe(
      bookingErrors.noDentistThatDay('Teeth Cleaning', mediumDay(dayOff)),
    );
    await cancel(patient(3), keptId);
    await patchDoctor(alice, { daysOff: [] });
    await patchDoctor(bea, { daysOff: [], workDays: [0, 1, 2, 3, 4, 5, 6] });
  });

  it('names the bookings a change of days leaves with the doctor on a day away, and keeps them', async () => {
    const made = await book(patient(20), { date: mediumDay(120), doctorId: bea });
    expect(made.statusCode, made.body).toBe(201);
    const { booking } = made.json() as { booking: Booking };
    const held = {
      _id: booking._id,
      date: clinicDay(120),
      slot: CLEANING_10,
      patientName: booking.patientName,
    };

    const off = await patchDoctor(bea, { daysOff: [clinicDay(120)] });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ _id: bea, daysOff: [clinicDay(120)], bookings: [held] });
    const weekday = weekdayOf(clinicDay(120));
    const notThatWeekday = await patchDoctor(bea, {
      daysOff: [],
      workDays: [0, 1, 2, 3, 4, 5, 6].filter((day) => day !== weekday),
    });
    const away = notThatWeekday.json().bookings as Array<{ date: IsoDate }>;
    expect(away).toContainEqual(held);
    expect(away.every((entry) => weekdayOf(entry.date) === weekday)).toBe(true);
    // A change of name, or days that keep the booking's, leaves nothing behind.
    expect((await patchDoctor(bea, { name: 'Bea Brown' })).json().bookings).toEqual([]);
    const back = await patchDoctor(bea, { workDays: [0, 1, 2, 3, 4, 5, 6] });
    expect(back.json().bookings).toEqual([]);
    // The booking stays booked with her all along.
    const stored = await t.db
      .selectFrom('booking')
      .select(['status', 'doctor_id'])
      .where('id', '=', booking._id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ status: 'booked', doctor_id: bea });
    await cancel(patient(20), booking._id);
  });

  it('books the doctor the patient chose, and names them in every answer and the mail', async () => {
    const made = await book(patient(4), { date: mediumDay(95), doctorId: bea });
    expect(made.statusCode).toBe(201);
    const { booking } = made.json() as { booking: Booking };
    expect(booking.doctor).toEqual({ _id: bea, name: 'Bea Brown' });
    const read = await t.app.inject({
      url: `/api/booking/${booking._id}`,
      headers: bearer(admin.token),
    });
    expect(read.json().doctor).toEqual({ _id: bea, name: 'Bea Brown' });
    const row = await t.db
      .selectFrom('booking')
      .select(['doctor_id', 'doctor_name'])
      .where('id', '=', booking._id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ doctor_id: bea, doctor_name: 'Bea Brown' });
    const mail = bookingConfirmationEmail({
      clinic: t.config.clinic,
      booking: {
        id: booking._id,
        patientName: 'Jane',
        treatment: 'Teeth Cleaning',
        isoDate: clinicDay(95),
        slot: CLEANING_10,
        priceDollars: 80,
        doctorName: 'Bea Brown',
      },
    });
    expect(mail.text).toContain('with Bea Brown');
    expect(mail.icalEvent?.content).toContain('Teeth Cleaning with Bea Brown');
  });

  it('refuses an unknown doctor (400) and one who does not perform the treatment (409)', async () => {
    const unknown = await book(patient(5), { date: mediumDay(96), doctorId: randomUUID() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(bookingErrors.unknownDoctor);
    const unqualified = await book(patient(5), {
      treatmentId: 'cavity-filling',
      slot: '11:00 AM - 12:00 PM',
      date: mediumDay(96),
      doctorId: bea,
    });
    expect(unqualified.statusCode).toBe(409);
    expect(unqualified.json().message).toBe(
      bookingErrors.doctorNotQualified('Bea Brown', 'Cavity Filling'),
    );
    const unknownFilter = await t.app.inject(
      `/api/available?date=${encodeURIComponent(mediumDay(96))}&doctor=${randomUUID()}`,
    );
    expect(unknownFilter.statusCode).toBe(400);
  });

  it('keeps one chair, and no doctor, for a treatment no doctor performs', async () => {
    const first = await book(patient(6), {
      treatmentId: 'teeth-whitening',
      slot: '2:00 PM - 3:00 PM',
      date: mediumDay(97),
    });
    expect(first.statusCode).toBe(201);
    expect((first.json() as { booking: Booking }).booking.doctor).toBeNull();
    const second = await book(patient(7), {
      treatmentId: 'teeth-whitening',
      slot: '2:00 PM - 3:00 PM',
      date: mediumDay(97),
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ reason: 'slot' });
    expect(await freeDoctors('teeth-whitening', 97, '3:00 PM - 4:00 PM')).toEqual([]);
  });

  it('keeps the chair a doctor’s booking holds once no doctor performs the treatment', async () => {
    const [held, other] = ['10:00 AM - 10:30 AM', '11:00 AM - 11:30 AM'];
    const made = await book(patient(21), {
      treatmentId: 'fluoride-treatment',
      slot: held,
      date: mediumDay(125),
    });
    expect(made.statusCode, made.body).toBe(201);
    const { booking } = made.json() as { booking: Booking };
    expect(booking.doctor).toEqual({ _id: alice, name: 'Alice Adams' });

    // Alice, its only dentist, stops doing it: the change names the booking she keeps.
    const dropped = await patchDoctor(alice, { treatmentIds: ['cavity-filling'] });
    expect(dropped.statusCode, dropped.body).toBe(200);
    expect(dropped.json().bookings).toEqual([
      { _id: booking._id, date: clinicDay(125), slot: held, patientName: booking.patientName },
    ]);
    // One chair from now on, and her booking sits in it: not offered, booked or moved into.
    expect(slotsOf(await available(125), 'fluoride-treatment')).toEqual(
      expect.not.arrayContaining([held]),
    );
    expect(slotsOf(await available(125), 'fluoride-treatment')).toContain(other);
    const again = await book(patient(22), {
      treatmentId: 'fluoride-treatment',
      slot: held,
      date: mediumDay(125),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ reason: 'slot' });
    const elsewhere = await book(patient(22), {
      treatmentId: 'fluoride-treatment',
      slot: other,
      date: mediumDay(125),
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${(elsewhere.json() as { booking: Booking }).booking._id}/reschedule`,
      headers: bearer(patient(22).token),
      payload: { date: mediumDay(125), slot: held },
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe(messages.slotTaken);

    await cancel(patient(21), booking._id);
    await cancel(patient(22), (elsewhere.json() as { booking: Booking }).booking._id);
    await patchDoctor(alice, { treatmentIds: ['cavity-filling', 'fluoride-treatment'] });
  });

  it('keeps the chair a booking without a doctor holds once a doctor performs the treatment', async () => {
    const [held, other] = ['2:00 PM - 3:00 PM', '3:00 PM - 4:00 PM'];
    const whitening = { treatmentId: 'teeth-whitening', date: mediumDay(128) };
    const made = await book(patient(23), { ...whitening, slot: held });
    expect(made.statusCode, made.body).toBe(201);
    const { booking } = made.json() as { booking: Booking };
    expect(booking.doctor).toBeNull();

    // Alice takes the treatment up: the booking made without a doctor keeps its slot, which is
    // neither offered nor booked (with any dentist or with her), nor moved into.
    const taken = await patchDoctor(alice, {
      treatmentIds: ['cavity-filling', 'fluoride-treatment', 'teeth-whitening'],
    });
    expect(taken.statusCode, taken.body).toBe(200);
    expect(slotsOf(await available(128), 'teeth-whitening')).toEqual(
      expect.not.arrayContaining([held]),
    );
    expect(await freeDoctors('teeth-whitening', 128, held)).toEqual([]);
    expect(await freeDoctors('teeth-whitening', 128, other)).toEqual(['Alice Adams']);
    for (const doctorId of [undefined, alice]) {
      const again = await book(patient(24), { ...whitening, slot: held, doctorId });
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ reason: 'slot' });
    }
    const elsewhere = await book(patient(24), { ...whitening, slot: other });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${(elsewhere.json() as { booking: Booking }).booking._id}/reschedule`,
      headers: bearer(patient(24).token),
      payload: { date: whitening.date, slot: held },
    });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe(messages.slotTaken);

    // Its own patient still moves it, and the slot it leaves is offered with Alice.
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${booking._id}/reschedule`,
      headers: bearer(patient(23).token),
      payload: { date: mediumDay(129), slot: held },
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(await freeDoctors('teeth-whitening', 128, held)).toEqual(['Alice Adams']);

    await cancel(patient(23), booking._id);
    await cancel(patient(24), (elsewhere.json() as { booking: Booking }).booking._id);
    await patchDoctor(alice, { treatmentIds: ['cavity-filling', 'fluoride-treatment'] });
  });

  it('answers availability with a doctor’s change at once', async () => {
    const before = slotsOf(await available(126), 'fluoride-treatment');
    expect(before.length).toBeGreaterThan(0);
    expect((await patchDoctor(alice, { daysOff: [clinicDay(126)] })).statusCode).toBe(200);
    expect(slotsOf(await available(126), 'fluoride-treatment')).toEqual([]);
    await patchDoctor(alice, { daysOff: [] });
    expect(slotsOf(await available(126), 'fluoride-treatment')).toEqual(before);
  });

  it('refuses to delete a doctor with upcoming bookings, listing them (409)', async () => {
    const dan = await addDoctor({
      name: 'Dan Dunn',
      email: 'dan@clinic.com',
      specialty: 'Oral Surgery',
    });
    const made = await book(patient(8), {
      treatmentId: 'oral-surgery',
      slot: '10:00 AM - 11:30 AM',
      date: mediumDay(98),
    });
    const { booking } = made.json() as { booking: Booking };
    expect(booking.doctor?._id).toBe(dan);
    const remove = () =>
      t.app.inject({
        method: 'DELETE',
        url: '/api/doctor/dan%40clinic.com',
        headers: bearer(admin.token),
      });
    const refused = await remove();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: doctorErrors.hasBookings(1),
      reason: 'doctor-booked',
      bookings: [
        {
          _id: booking._id,
          date: clinicDay(98),
          slot: '10:00 AM - 11:30 AM',
          patientName: patient(8).name,
        },
      ],
    });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${booking._id}`,
      headers: bearer(patient(8).token),
    });
    expect((await remove()).json()).toEqual({ deletedCount: 1 });
  });

  describe('the per-day read of the doctors’ units', () => {
    const plan = (date: IsoDate) => queryPlan(t.db, doctorUnitsQuery(t.db, date).compile());

    beforeAll(async () => {
      // Enough booked days that PostgreSQL's planner weighs the index against a sequential scan.
      const bookings = [];
      const units = [];
      for (let index = 0; index < 2000; index += 1) {
        const id = randomUUID();
        const date = clinicDay(300 + Math.floor(index / 10));
        const slot = `${10 + (index % 10)}:00 AM`;
        bookings.push({
          id,
          treatment_id: 'teeth-cleaning',
          treatment_name: 'Teeth Cleaning',
          price_cents: 8000,
          date,
          slot,
          patient_id: null,
          patient_email: `bulk${index}@mail.com`,
          patient_name: `Bulk ${index}`,
          phone: '+1 555 010 2030',
          age: 30,
          created_at: new Date().toISOString(),
          paid_at: null,
          transaction_id: null,
          doctor_id: index % 2 === 0 ? alice : bea,
          doctor_name: 'Bulk',
        });
        for (let unit = 0; unit < 6; unit += 1) {
          units.push({
            booking_id: id,
            doctor_id: index % 2 === 0 ? alice : bea,
            date,
            unit: (index % 10) * 12 + unit,
          });
        }
      }
      await insertRows(t.db, 'booking', bookings);
      await insertRows(t.db, 'doctor_unit', units);
      if (engine === 'postgres') await sql`analyze doctor_unit`.execute(t.db);
    });

    it('reads only the date’s entries of the doctor units’ unique index', async () => {
      const text = await plan(clinicDay(350));
      // biome-ignore lint/suspicious/noConsole: the plan is what this test is about.
      console.log(`doctor units query plan (${engine}):\n${text}`);
      expect(text).toContain('doctor_unit_doctor_unique');
      if (engine === 'sqlite') expect(text).not.toMatch(/SCAN doctor_unit(?! USING)/);
      else expect(text).not.toMatch(/Seq Scan on doctor_unit/);
    });
  });
});
