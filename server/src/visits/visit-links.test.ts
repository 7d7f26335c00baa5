import {
  type AvailableTreatment,
  CANCELLATION_CLOSED,
  type Schedule,
  type VisitLinkAction,
  visitLinkMessages,
} from '@doctors-portal/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { storedDoctor } from '../../test/admin-fixtures.js';
import { clinicDay, clinicTime, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  bookingRow,
  type Patient,
  signedUpAdmin,
  signedUpPatient,
} from '../../test/payment-fixtures.js';
import { payThroughDemo } from '../../test/security-fixtures.js';
import { clock } from '../bookings/clock.js';
import { insertBooking, newBookingRow } from '../bookings/repository.js';
import type { Booking } from '../db/schema.js';
import type { VisitLinkSigner } from './links.js';
import { mailActionLinks, visitLinkSignerOf, visitStart } from './mail-links.js';

/**
 * The one-tap links of the confirmation and reminder mails (issue 16, item 2): signed, bound to
 * a booking and its sequence, expiring at the visit's start, and usable once, even when two
 * uses race.
 */

const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe(`one-tap visit links (${engine})`, () => {
  let t: TestApp;
  let signer: VisitLinkSigner;
  let jane: Patient;
  let admin: Patient;
  let nextDay = 100;

  beforeAll(async () => {
    t = await buildTestApp();
    signer = visitLinkSignerOf(t.app.config);
    [jane, admin] = await Promise.all([signedUpPatient(t.app, 'Jane Doe'), signedUpAdmin(t)]);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A live booking of Jane's with its time units, on a day of its own. */
  async function booking(fields: Partial<Booking> = {}): Promise<Booking> {
    nextDay += 1;
    const row: Booking = {
      ...newBookingRow({
        treatment_id: 'teeth-cleaning',
        treatment_name: 'Teeth Cleaning',
        price_cents: 8000,
        date: clinicDay(nextDay),
        slot: TEN,
        patient_id: jane.id,
        patient_email: jane.email,
        patient_name: jane.name,
        phone: '+1 555 010 2030',
        age: 34,
      }),
      ...fields,
    };
    await t.db.transaction().execute((tx) => insertBooking(tx, row));
    return row;
  }

  /** A link as a mail made for the booking as it is. */
  const link = (row: Booking, action: VisitLinkAction) =>
    signer.sign({
      bookingId: row.id,
      action,
      sequence: row.sequence,
      expiresAt: visitStart(t.app.config.clinic.timeZone, row.date, row.slot),
    });

  const open = (token: string) => t.app.inject({ method: 'GET', url: `/api/visit/${token}` });
  const use = (token: string, action: VisitLinkAction, payload?: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/visit/${token}/${action}`,
      ...(payload && { payload }),
    });

  async function freeSlots(day: number) {
    const response = await t.app.inject(
      `/api/available?date=${encodeURIComponent(mediumDay(day))}`,
    );
    const treatments = response.json() as AvailableTreatment[];
    return treatments.find((treatment) => treatment._id === 'teeth-cleaning')?.slots ?? [];
  }

  it('opens without signing in: the action, the visit and the cancellation policy', async () => {
    const row = await booking();
    const response = await open(link(row, 'cancel'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.json()).toEqual({
      action: 'cancel',
      booking: {
        id: row.id,
        treatmentId: 'teeth-cleaning',
        treatment: 'Teeth Cleaning',
        date: mediumDay(nextDay),
        slot: TEN,
        doctor: null,
        status: 'booked',
        paid: false,
        cancellable: true,
      },
      policy: expect.stringMatching(/^You can cancel free of charge/),
    });
    // Opening does not use the link up.
    expect((await open(link(row, 'cancel'))).statusCode).toBe(200);
    expect(response.json().policy).not.toContain(CANCELLATION_CLOSED);
  });

  it("names the visit's doctor as every booking the API answers does", async () => {
    const mayaId = await storedDoctor(t.db, 'Dr. Maya Chen');
    const row = await booking({ doctor_id: mayaId, doctor_name: 'Dr. Maya Chen' });
    const response = await open(link(row, 'confirm'));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().booking.doctor).toEqual({ _id: mayaId, name: 'Dr. Maya Chen' });
  });

  it('confirms once: the schedule shows it confirmed, audited as the patient; a second use is 409', async () => {
    const row = await booking();
    const token = link(row, 'confirm');
    const first = await use(token, 'confirm');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ booking: { status: 'confirmed' }, refunded: false });

    const schedule = await t.app.inject({
      url: `/api/schedule?from=${row.date}&to=${row.date}`,
      headers: bearer(admin.token),
    });
    const entry = (schedule.json() as Schedule).bookings.find((b) => b._id === row.id);
    expect(entry?.status).toBe('confirmed');
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', row.id)
      .where('action', '=', 'booking.status')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_kind: 'patient', actor_id: jane.id });

    for (const again of [await use(token, 'confirm'), await open(token)]) {
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(visitLinkMessages.used);
    }
  });

  it('lets exactly one of many concurrent uses of a link through', async () => {
    const row = await booking();
    const token = link(row, 'confirm');
    const answers = await Promise.all(Array.from({ length: 8 }, () => use(token, 'confirm')));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    const uses = await t.db
      .selectFrom('visit_link_use')
      .select('id')
      .where('booking_id', '=', row.id)
      .execute();
    expect(uses).toHaveLength(1);
  });

  it('answers 404 for a tampered, garbled or wrong-action link, and for an unknown booking', async () => {
    const row = await booking();
    const token = link(row, 'confirm');
    // Another booking's id in the same claims, the signature kept.
    const payload = JSON.parse(Buffer.from(token.slice(0, -43), 'base64url').toString());
    payload[0] = (await booking()).id;
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}${token.slice(-43)}`;
    const swap = (text: string, at: number, to: (index: number) => number) =>
      `${text.slice(0, at)}${BASE64URL[to(BASE64URL.indexOf(text.at(at) ?? ''))]}${text.slice(at + 1)}`;
    // A signature character changed; and the last one with only its two unused bits changed,
    // which decodes to the same bytes.
    const flipped = swap(token, token.length - 10, (index) => (index + 1) % 64);
    const twin = swap(token, token.length - 1, (index) => index ^ 1);
    for (const bad of [forged, flipped, twin, 'garbage', 'x'.repeat(600), 'a.b']) {
      const response = await use(bad, 'confirm');
      expect(response.statusCode, bad).toBe(404);
      expect(response.json().message).toBe(visitLinkMessages.invalid);
    }
    expect((await use(token, 'cancel')).statusCode).toBe(404);
    const unknown = signer.sign({
      bookingId: '00000000-0000-4000-8000-000000000000',
      action: 'confirm',
      sequence: 0,
      expiresAt: Date.now() + 3_600_000,
    });
    expect((await open(unknown)).statusCode).toBe(404);
    expect((await bookingRow(t, row.id)).status).toBe('booked');
  });

  it('answers 410 once the visit has started', async () => {
    const row = await booking();
    const token = link(row, 'cancel');
    vi.spyOn(clock, 'now').mockReturnValue(clinicTime(row.date, '10:00'));
    for (const response of [await open(token), await use(token, 'cancel')]) {
      expect(response.statusCode).toBe(410);
      expect(response.json().message).toBe(visitLinkMessages.expired);
    }
    expect((await bookingRow(t, row.id)).status).toBe('booked');
  });

  it('moves the visit once through a Reschedule link; the old links stop working', async () => {
    const row = await booking();
    const moving = link(row, 'reschedule');
    const confirming = link(row, 'confirm');
    const to = nextDay + 1;
    nextDay += 1;
    const response = await use(moving, 'reschedule', { date: mediumDay(to), slot: ELEVEN });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().booking).toMatchObject({
      id: row.id,
      date: mediumDay(to),
      slot: ELEVEN,
    });
    expect(await freeSlots(nextDay - 1)).toContain(TEN);
    expect((await bookingRow(t, row.id)).sequence).toBe(1);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'actor_id'])
      .where('subject_id', '=', row.id)
      .where('action', '=', 'booking.rescheduled')
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ actor_kind: 'patient', actor_id: jane.id });

    const again = await use(moving, 'reschedule', { date: mediumDay(to), slot: TEN });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(visitLinkMessages.used);
    const stale = await use(confirming, 'confirm');
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(visitLinkMessages.moved);
  });

  it('moves the visit once when two uses of one Reschedule link race', async () => {
    const row = await booking();
    const moving = link(row, 'reschedule');
    const [one, other] = (await freeSlots(nextDay)).filter((slot) => slot !== TEN);
    const answers = await Promise.all(
      [one, other].map((slot) => use(moving, 'reschedule', { date: mediumDay(nextDay), slot })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect((await bookingRow(t, row.id)).sequence).toBe(1);
  });

  it('refuses a Reschedule link whose visit was moved in the app while the link was opened', async () => {
    const row = await booking();
    const moving = link(row, 'reschedule');
    const [one, other] = (await freeSlots(nextDay)).filter((slot) => slot !== TEN);
    const moveInApp = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/booking/${row.id}/reschedule`,
        headers: bearer(jane.token),
        payload: { date: mediumDay(nextDay), slot: other },
      });
    // The patient moves the visit in the app after the link's checks, before its transaction.
    const transact = t.app.transact;
    let movedInApp: Awaited<ReturnType<typeof moveInApp>> | undefined;
    vi.spyOn(t.app, 'transact').mockImplementationOnce(async (work) => {
      movedInApp = await moveInApp();
      return transact(work);
    });
    const byLink = await use(moving, 'reschedule', { date: mediumDay(nextDay), slot: one });
    expect(movedInApp?.statusCode, movedInApp?.body).toBe(200);
    expect(byLink.statusCode, byLink.body).toBe(409);
    expect(byLink.json().message).toBe(visitLinkMessages.moved);
    expect(await bookingRow(t, row.id)).toMatchObject({ slot: other, sequence: 1 });
    // Unused: it is still refused as stale, not as used.
    expect((await open(moving)).json().message).toBe(visitLinkMessages.moved);
  });

  it('refuses a reschedule the booking rules refuse, leaving the link unused', async () => {
    const row = await booking();
    const moving = link(row, 'reschedule');
    const past = await use(moving, 'reschedule', { date: mediumDay(-1), slot: ELEVEN });
    expect(past.statusCode).toBe(400);
    expect((await open(moving)).statusCode).toBe(200);
  });

  it('cancels an unpaid visit once, freeing its slot; the visit’s other links then say so', async () => {
    const row = await booking();
    const cancelling = link(row, 'cancel');
    const response = await use(cancelling, 'cancel');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      booking: expect.objectContaining({ id: row.id, status: 'cancelled' }),
      refunded: false,
    });
    expect(await freeSlots(nextDay)).toContain(TEN);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor_kind', 'actor_id'])
      .where('subject_id', '=', row.id)
      .where('action', '=', 'booking.cancelled')
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ actor_kind: 'patient', actor_id: jane.id });

    expect((await use(cancelling, 'cancel')).json().message).toBe(visitLinkMessages.used);
    const confirm = await use(link(row, 'confirm'), 'confirm');
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().message).toBe(visitLinkMessages.cancelled);
  });

  it('cancels a paid visit in time under the policy: refunded through the provider', async () => {
    const row = await booking();
    await payThroughDemo(t, { ...jane, cookie: '' }, row);
    const response = await use(link(row, 'cancel'), 'cancel');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      booking: expect.objectContaining({ status: 'cancelled', paid: true }),
      refunded: true,
    });
    const refund = await t.db
      .selectFrom('refund')
      .select('booking_id')
      .where('booking_id', '=', row.id)
      .executeTakeFirst();
    expect(refund).toBeDefined();
  });

  it('refunds once when two uses of a paid visit’s Cancel link race', async () => {
    const row = await booking();
    await payThroughDemo(t, { ...jane, cookie: '' }, row);
    const cancelling = link(row, 'cancel');
    const answers = await Promise.all([use(cancelling, 'cancel'), use(cancelling, 'cancel')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const refunds = await t.db
      .selectFrom('refund')
      .select('id')
      .where('booking_id', '=', row.id)
      .execute();
    expect(refunds).toHaveLength(1);
    expect((await bookingRow(t, row.id)).status).toBe('cancelled');
  });

  it('keeps a visit inside the cancellation notice, saying to call the clinic; the link stays unused', async () => {
    const row = await booking({ date: clinicDay(1) });
    const cancelling = link(row, 'cancel');
    const response = await use(cancelling, 'cancel');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain(t.app.config.clinic.phone);
    expect((await bookingRow(t, row.id)).status).toBe('booked');
    const opened = await open(cancelling);
    expect(opened.statusCode).toBe(200);
    // Its page states the policy, and that this visit is past it.
    const { policy } = opened.json() as { policy: string };
    expect(policy).toMatch(/^You can cancel free of charge/);
    expect(policy).toContain(CANCELLATION_CLOSED);
  });

  it('refuses links to a visit past changing (arrived, completed)', async () => {
    const row = await booking({ status: 'arrived' });
    const response = await open(link(row, 'confirm'));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(visitLinkMessages.closed);
  });

  it("makes a mail's three links for the visit as it is, and none once it has started", async () => {
    const row = await booking();
    const links = await mailActionLinks(t.app.config, signer)(row);
    expect(links).not.toBeNull();
    for (const [action, url] of Object.entries(links ?? {})) {
      expect(url.startsWith(`${t.app.config.publicUrl}/visit/`)).toBe(true);
      const response = await open(url.slice(url.lastIndexOf('/') + 1));
      expect(response.json().action).toBe(action);
    }
    vi.spyOn(clock, 'now').mockReturnValue(clinicTime(row.date, '10:00'));
    expect(await mailActionLinks(t.app.config, signer)(row)).toBeNull();
  });
});
