import type { Booking } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, signUp } from '../../test/accounts.js';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * `GET /api/booking/{id}/calendar.ics`: 'Add to calendar' after booking gives the patient the
 * confirmation mail's event (same UID, SEQUENCE as moved), for their own booking only.
 */
describe(`a booking's calendar event (${engine})`, () => {
  let t: TestApp;
  let jane: string;
  let omar: string;
  let booking: Booking;

  const book = async (token: string, days: number, slot: string): Promise<Booking> => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(days),
        slot,
        phone: '+1 555 010 2030',
        age: 41,
      },
    });
    expect(response.statusCode).toBe(201);
    return (response.json() as { booking: Booking }).booking;
  };
  const event = (token: string | null, id: string) =>
    t.app.inject({ url: `/api/booking/${id}/calendar.ics`, headers: token ? bearer(token) : {} });
  const tokenOf = async (app: FastifyInstance, name: string) =>
    accessToken(app, await signUp(app, { name }));

  beforeAll(async () => {
    t = await buildTestApp();
    jane = await tokenOf(t.app, 'Jane Event');
    omar = await tokenOf(t.app, 'Omar Event');
    booking = await book(jane, 9, '10:30 AM - 11:00 AM');
  });
  afterAll(() => t.close());

  it("answers the confirmation's event in the clinic's time zone, as a file to download", async () => {
    const response = await event(jane, booking._id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="appointment.ics"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    const lines = response.body.replace(/\r\n /g, '').split('\r\n');
    const { clinic } = t.app.config;
    expect(lines).toContain(`UID:booking-${booking._id}@${clinic.email.split('@')[1]}`);
    expect(lines).toContain(
      `DTSTART;TZID=${clinic.timeZone}:${clinicDay(9).replace(/-/g, '')}T103000`,
    );
    expect(lines).toContain('SEQUENCE:0');
    expect(lines).toContain(`SUMMARY:Teeth Cleaning at ${clinic.name}`);
  });

  it('gives a moved booking its new time, one SEQUENCE up, under the same UID', async () => {
    const moving = await book(jane, 12, '11:00 AM - 11:30 AM');
    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/booking/${moving._id}/reschedule`,
      headers: bearer(jane),
      payload: { date: mediumDay(13), slot: '12:00 PM - 12:30 PM' },
    });
    expect(moved.statusCode).toBe(200);
    const lines = (await event(jane, moving._id)).body.split('\r\n');
    expect(lines).toContain('SEQUENCE:1');
    expect(lines.some((line) => /^DTSTART;TZID=[^:]+:\d{8}T120000$/.test(line))).toBe(true);
  });

  it("refuses another patient's booking (403), an unknown one (404) and no sign-in (401)", async () => {
    expect((await event(omar, booking._id)).statusCode).toBe(403);
    expect((await event(jane, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await event(jane, 'not-an-id')).statusCode).toBe(404);
    expect((await event(null, booking._id)).statusCode).toBe(401);
  });

  it('answers 409 with the reason for a cancelled booking', async () => {
    const cancelled = await book(jane, 20, '5:00 PM - 5:30 PM');
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: `/api/booking/${cancelled._id}`,
      headers: bearer(jane),
    });
    expect(cancel.statusCode).toBe(200);
    const response = await event(jane, cancelled._id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'This appointment is cancelled, so there is no calendar event to add.',
    );
  });
});
