import {
  type AvailableTreatment,
  slotsHeldSchema,
  type Treatment,
  treatmentErrors,
  treatmentSchema,
} from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { demoTreatments } from '../db/demo-data.js';

/**
 * The clinic's treatments (`GET/POST /api/treatments`, `PATCH /api/treatments/{id}`): the demo
 * catalogue first, adding, editing and retiring, what patients then see on the booking page, the
 * bookings that keep what they were booked with, and the audit log.
 */
describe(`the clinic's treatments (${engine})`, () => {
  let t: TestApp;
  let admin: Patient;
  let jane: Patient;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t, 'Ada Admin');
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: Record<string, unknown>,
    who: Patient = admin,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...bearer(who.token), origin: t.config.publicUrl },
      ...(payload ? { payload } : {}),
    });
  const catalogue = async (): Promise<Treatment[]> => {
    const response = await call('GET', '/api/treatments');
    expect(response.statusCode, response.body).toBe(200);
    return treatmentSchema.array().parse(response.json());
  };
  const create = async (fields: Record<string, unknown>): Promise<Treatment> => {
    const response = await call('POST', '/api/treatments', fields);
    expect(response.statusCode, response.body).toBe(201);
    return treatmentSchema.parse(response.json());
  };
  const available = async (offset: number): Promise<AvailableTreatment[]> => {
    const response = await t.app.inject(
      `/api/available?date=${encodeURIComponent(mediumDay(offset))}`,
    );
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const audit = (subjectId: string) =>
    t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_type', '=', 'treatment')
      .where('subject_id', '=', subjectId)
      .orderBy('at')
      .execute();

  it('starts with the demo catalogue, in its order, prices in dollars', async () => {
    const list = await catalogue();
    expect(list.map((treatment) => treatment._id)).toEqual(demoTreatments.map((row) => row.id));
    expect(list[0]).toMatchObject({
      _id: 'teeth-cleaning',
      name: 'Teeth Cleaning',
      description: '',
      price: 80,
      retired: false,
      retiredAt: null,
      sortOrder: 1,
    });
    expect(list[0]?.slots[0]).toBe('10:00 AM - 10:30 AM');
  });

  it('adds a treatment after the others, offered on the booking page at once, and audited', async () => {
    // The availability answer is cached: read it first so the change has to reach it.
    expect((await available(20)).some((treatment) => treatment.name === 'Root Canal')).toBe(false);
    const created = await create({
      name: '  Root Canal ',
      description: 'Saves an infected tooth.',
      price: 320.5,
      slots: ['9:00 AM - 10:30 AM', '10:30 AM - 12:00 PM'],
    });
    expect(created).toMatchObject({
      _id: 'root-canal',
      name: 'Root Canal',
      price: 320.5,
      retired: false,
      sortOrder: demoTreatments.length + 1,
    });
    const offered = (await available(20)).find((treatment) => treatment._id === 'root-canal');
    expect(offered).toEqual({
      _id: 'root-canal',
      name: 'Root Canal',
      slots: ['9:00 AM - 10:30 AM', '10:30 AM - 12:00 PM'],
      price: 320.5,
    });
    const services = (await t.app.inject('/api/service')).json() as Array<{ name: string }>;
    expect(services.map((service) => service.name)).toContain('Root Canal');
    const [entry] = await audit('root-canal');
    expect(entry).toMatchObject({
      action: 'treatment.created',
      actor_kind: 'admin',
      actor_name: 'Ada Admin',
      subject_label: 'Root Canal',
      before: null,
    });
    expect(JSON.parse(entry?.after ?? '{}')).toEqual({
      name: 'Root Canal',
      description: 'Saves an infected tooth.',
      price: 320.5,
      slots: ['9:00 AM - 10:30 AM', '10:30 AM - 12:00 PM'],
    });
  });

  it('refuses a name a treatment already has, in any case, with the reason', async () => {
    const response = await call('POST', '/api/treatments', {
      name: 'teeth CLEANING',
      price: 10,
      slots: ['9:00 AM - 9:30 AM'],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(treatmentErrors.duplicateName('Teeth Cleaning'));
    const rename = await call('PATCH', '/api/treatments/root-canal', { name: 'Oral Surgery' });
    expect(rename.statusCode).toBe(409);
  });

  it('stores a name in the spelling it shows as, and refuses another spelling of the same', async () => {
    const first = await create({
      name: 'Night\u00a0\u00a0Cafe\u0301 ',
      price: 40,
      slots: ['9:00 AM - 9:30 AM'],
    });
    expect(first.name).toBe('Night Café');
    for (const name of ['Night Cafe\u0301', 'Night\u00a0Café', 'Night  Café', 'Night\u200b Café']) {
      const response = await call('POST', '/api/treatments', {
        name,
        price: 10,
        slots: ['9:00 AM - 9:30 AM'],
      });
      expect(response.statusCode, JSON.stringify(name)).toBe(409);
      expect(response.json().message).toBe(treatmentErrors.duplicateName('Night Café'));
    }
  });

  it('refuses a name a treatment already has in another case beyond ASCII too', async () => {
    const first = await create({
      name: 'Ästhetische Füllung',
      price: 120,
      slots: ['9:00 AM - 9:30 AM'],
    });
    for (const name of ['ÄSTHETISCHE FÜLLUNG', 'ästhetische füllung']) {
      const response = await call('POST', '/api/treatments', {
        name,
        price: 10,
        slots: ['9:00 AM - 9:30 AM'],
      });
      expect(response.statusCode, name).toBe(409);
      expect(response.json().message).toBe(treatmentErrors.duplicateName('Ästhetische Füllung'));
    }
    const other = await create({
      name: 'Ökologische Pflege',
      price: 50,
      slots: ['9:00 AM - 9:30 AM'],
    });
    const rename = await call('PATCH', `/api/treatments/${other._id}`, {
      name: 'ÄSTHETISCHE füllung',
    });
    expect(rename.statusCode).toBe(409);
    // Its own name in another case is no clash.
    const recased = await call('PATCH', `/api/treatments/${first._id}`, {
      name: 'Ästhetische füllung',
    });
    expect(recased.statusCode, recased.body).toBe(200);
  });

  it('lets one of several names differing only in case win when administrators save them at once', async () => {
    const variants = (name: string) => [
      name,
      name.toUpperCase(),
      name.toLowerCase(),
      `${name.slice(0, 1)}${name.slice(1).toLowerCase()}`,
      `${name.slice(0, 3).toUpperCase()}${name.slice(3).toLowerCase()}`,
      `${name.slice(0, 3).toLowerCase()}${name.slice(3).toUpperCase()}`,
    ];
    const outcome = (responses: { statusCode: number }[]) =>
      responses.map((response) => response.statusCode).sort();
    const added = await Promise.all(
      variants('Night Whitening').map((name) =>
        call('POST', '/api/treatments', { name, price: 90, slots: ['9:00 AM - 9:30 AM'] }),
      ),
    );
    expect(outcome(added)).toEqual([201, 409, 409, 409, 409, 409]);
    const others = await Promise.all(
      ['Seal', 'Varnish', 'Polish', 'Scale', 'Bond', 'Inlay'].map((name) =>
        create({ name: `Day ${name}`, price: 40, slots: ['9:00 AM - 9:30 AM'] }),
      ),
    );
    const renamed = await Promise.all(
      variants('Day Coating').map((name, index) =>
        call('PATCH', `/api/treatments/${others[index]?._id}`, { name }),
      ),
    );
    expect(outcome(renamed)).toEqual([200, 409, 409, 409, 409, 409]);
    const names = (await catalogue()).map((treatment) => treatment.name.toLowerCase());
    expect(names.filter((name) => name === 'night whitening')).toHaveLength(1);
    expect(names.filter((name) => name === 'day coating')).toHaveLength(1);
  });

  it.each([
    [{ price: 0 }, treatmentErrors.pricePositive],
    [{ price: -5 }, treatmentErrors.pricePositive],
    [{ price: 1e-9 }, treatmentErrors.pricePositive],
    [{ price: 10.555 }, treatmentErrors.priceCents],
    [{ price: 100_000.01 }, treatmentErrors.priceTooHigh],
    [{ price: '80' }, treatmentErrors.priceNotNumber],
    [{ price: undefined }, treatmentErrors.priceRequired],
    [{ name: '   ' }, treatmentErrors.nameRequired],
    [{ name: '\u200b' }, treatmentErrors.nameRequired],
    [{ name: 'X\r\nATTENDEE:mailto:evil@example.com' }, treatmentErrors.nameCharacters],
    [{ name: 'Cleaning \u202eeerf' }, treatmentErrors.nameCharacters],
    [{ description: 'Ring \u0007' }, treatmentErrors.descriptionCharacters],
    [{ slots: [] }, 'Add at least one slot time.'],
    [{ slots: ['9:00 - 9:30'] }, 'is not a slot time'],
    [{ slots: ['9:30 AM - 9:00 AM'] }, 'ends before it starts'],
    [{ slots: ['9:00 AM - 9:30 AM', '9:00 AM - 9:30 AM'] }, 'is listed twice'],
    [{ slots: ['10:00 AM - 10:30 AM', '9:00 AM - 9:30 AM'] }, 'out of order'],
    [{ slots: ['9:00 AM - 10:00 AM', '9:30 AM - 10:30 AM'] }, 'overlap'],
    [{ slots: ['9:00 AM - 9:07 AM', '9:07 AM - 9:14 AM'] }, 'on a 5-minute mark'],
  ])('refuses %j with a message naming the problem', async (fields, message) => {
    const response = await call('POST', '/api/treatments', {
      name: 'Bad Treatment',
      price: 50,
      slots: ['9:00 AM - 9:30 AM'],
      ...fields,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('changes the price and slots on the booking page at once; bookings keep what they were booked with', async () => {
    const booked = await unpaidBooking(t, jane, {
      treatment_id: 'fluoride-treatment',
      treatment_name: 'Fluoride Treatment',
      price_cents: 4500,
      date: clinicDay(40),
      slot: '10:00 AM - 10:30 AM',
    });
    await available(40);
    const response = await call('PATCH', '/api/treatments/fluoride-treatment', {
      name: 'Fluoride Varnish',
      price: 49.99,
      slots: ['10:00 AM - 10:30 AM', '10:30 AM - 11:00 AM', '1:00 PM - 1:30 PM'],
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Fluoride Varnish', price: 49.99 });
    const offered = (await available(40)).find((item) => item._id === 'fluoride-treatment');
    expect(offered).toMatchObject({
      name: 'Fluoride Varnish',
      price: 49.99,
      slots: ['10:30 AM - 11:00 AM', '1:00 PM - 1:30 PM'],
    });
    const row = await t.db
      .selectFrom('booking')
      .select(['treatment_name', 'price_cents'])
      .where('id', '=', booked.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ treatment_name: 'Fluoride Treatment', price_cents: 4500 });
    const entries = await audit('fluoride-treatment');
    expect(entries.map((entry) => entry.action)).toEqual(['treatment.updated']);
    expect(JSON.parse(entries[0]?.before ?? '{}')).toEqual({
      name: 'Fluoride Treatment',
      price: 45,
      slots: [
        '10:00 AM - 10:30 AM',
        '10:30 AM - 11:00 AM',
        '11:00 AM - 11:30 AM',
        '11:30 AM - 12:00 PM',
      ],
    });
    expect(JSON.parse(entries[0]?.after ?? '{}')).toMatchObject({
      name: 'Fluoride Varnish',
      price: 49.99,
    });
  });

  it('refuses to remove or change a slot time future bookings hold, listing them', async () => {
    const held = await unpaidBooking(t, jane, {
      treatment_id: 'cavity-filling',
      treatment_name: 'Cavity Filling',
      price_cents: 15000,
      date: clinicDay(50),
      slot: '12:00 PM - 1:00 PM',
    });
    // A cancelled booking and one of a past day hold nothing.
    await unpaidBooking(t, jane, {
      treatment_id: 'cavity-filling',
      treatment_name: 'Cavity Filling',
      date: clinicDay(51),
      slot: '11:00 AM - 12:00 PM',
      status: 'cancelled',
      cancelled_at: new Date().toISOString(),
    });
    await unpaidBooking(t, jane, {
      treatment_id: 'cavity-filling',
      treatment_name: 'Cavity Filling',
      date: clinicDay(-3),
      slot: '11:00 AM - 12:00 PM',
    });
    const before = (await catalogue()).find((item) => item._id === 'cavity-filling');
    const response = await call('PATCH', '/api/treatments/cavity-filling', {
      price: 160,
      slots: ['12:00 PM - 12:45 PM', '1:00 PM - 2:00 PM'],
    });
    expect(response.statusCode).toBe(409);
    const body = slotsHeldSchema.parse(response.json());
    expect(body.message).toBe(treatmentErrors.slotsHeld(1));
    expect(body.bookings).toEqual([
      { _id: held.id, date: clinicDay(50), slot: '12:00 PM - 1:00 PM', patientName: 'Jane Doe' },
    ]);
    // Nothing changed, nothing audited.
    expect((await catalogue()).find((item) => item._id === 'cavity-filling')).toEqual(before);
    expect(await audit('cavity-filling')).toEqual([]);
    // Keeping the held slot (and dropping the free one of the past booking) is fine.
    const kept = await call('PATCH', '/api/treatments/cavity-filling', {
      slots: ['11:30 AM - 12:00 PM', '12:00 PM - 1:00 PM'],
    });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('retires a treatment: it leaves the booking page and the services, cannot be booked, its bookings stay; and brings it back', async () => {
    const booked = await unpaidBooking(t, jane, {
      treatment_id: 'oral-surgery',
      treatment_name: 'Oral Surgery',
      price_cents: 40000,
      date: clinicDay(60),
      slot: '10:00 AM - 11:30 AM',
    });
    await available(61);
    const response = await call('PATCH', '/api/treatments/oral-surgery', { retired: true });
    expect(response.statusCode, response.body).toBe(200);
    const retired = treatmentSchema.parse(response.json());
    expect(retired.retired).toBe(true);
    expect(retired.retiredAt).not.toBeNull();

    expect((await available(61)).map((item) => item._id)).not.toContain('oral-surgery');
    const services = (await t.app.inject('/api/service')).json() as Array<{ _id: string }>;
    expect(services.map((service) => service._id)).not.toContain('oral-surgery');
    expect((await catalogue()).find((item) => item._id === 'oral-surgery')?.retired).toBe(true);
    const booking = await call(
      'POST',
      '/api/booking',
      {
        treatmentId: 'oral-surgery',
        date: mediumDay(61),
        slot: '10:00 AM - 11:30 AM',
        phone: '+1 555 000 1234',
        age: 40,
      },
      jane,
    );
    expect(booking.statusCode).toBe(400);
    expect(booking.json().message).toMatch(/do not offer that treatment/);
    const row = await t.db
      .selectFrom('booking')
      .select(['status', 'treatment_name'])
      .where('id', '=', booked.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'booked', treatment_name: 'Oral Surgery' });
    // A retired name stays taken.
    const again = await call('POST', '/api/treatments', {
      name: 'Oral Surgery',
      price: 100,
      slots: ['9:00 AM - 9:30 AM'],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(treatmentErrors.retiredName('Oral Surgery'));

    const back = await call('PATCH', '/api/treatments/oral-surgery', { retired: false });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ retired: false, retiredAt: null });
    expect((await available(61)).map((item) => item._id)).toContain('oral-surgery');
    expect((await audit('oral-surgery')).map((entry) => entry.action)).toEqual([
      'treatment.retired',
      'treatment.restored',
    ]);
  });

  it('answers 404 for an unknown treatment and 400 for an empty change', async () => {
    expect((await call('PATCH', '/api/treatments/no-such', { price: 10 })).statusCode).toBe(404);
    const empty = await call('PATCH', '/api/treatments/teeth-cleaning', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(treatmentErrors.nothingToChange);
  });

  it('records nothing for a change that changes nothing', async () => {
    const same = await call('PATCH', '/api/treatments/teeth-whitening', { price: 250 });
    expect(same.statusCode).toBe(200);
    expect(await audit('teeth-whitening')).toEqual([]);
  });

  it('is for administrators only', async () => {
    expect((await call('GET', '/api/treatments', undefined, jane)).statusCode).toBe(403);
    const patch = await call('PATCH', '/api/treatments/teeth-cleaning', { price: 1 }, jane);
    expect(patch.statusCode).toBe(403);
    expect((await t.app.inject('/api/treatments')).statusCode).toBe(401);
  });
});
