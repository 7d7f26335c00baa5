import { visitLinkMessages } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { mediumDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { bookingRow, type Patient, signedUpPatient } from '../../test/payment-fixtures.js';
import {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
} from '../../test/smtp-server.js';

/**
 * The links as the patient gets them: the confirmation mail's Confirm, Reschedule and Cancel
 * links lead to the visit page, work without signing in, and a move's mail brings new ones.
 */

const TEN = '10:00 AM - 10:30 AM';
const ELEVEN = '11:00 AM - 11:30 AM';

/** The visit links of a mail's text part, by action, as the token of each. */
function linksOf(mail: ReceivedMail, publicUrl: string) {
  const tokens = [...(mail.text ?? '').matchAll(/\/visit\/([\w-]+)/g)].map((match) => match[1]);
  expect(mail.text).toContain(`${publicUrl}/visit/`);
  expect(tokens).toHaveLength(3);
  return tokens as [string, string, string];
}

describe(`the confirmation mail's one-tap links (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let jane: Patient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const actionOf = async (token: string) =>
    (await t.app.inject({ url: `/api/visit/${token}` })).json().action as string;

  it('confirm, reschedule and cancel the visit they were mailed for, signed out', async () => {
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: bearer(jane.token),
      payload: {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(150),
        slot: TEN,
        phone: '+1 555 010 2030',
        age: 34,
      },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const id = booked.json().booking._id as string;
    const confirmation = await smtp.waitForMail(
      (mail) =>
        (mail.subject ?? '').startsWith('Appointment confirmed') &&
        mail.text?.includes('/visit/') === true,
    );
    const links = linksOf(confirmation, t.app.config.publicUrl);
    expect(await Promise.all(links.map(actionOf))).toEqual(['confirm', 'reschedule', 'cancel']);
    const [confirm, reschedule, cancel] = links;

    expect(
      (await t.app.inject({ method: 'POST', url: `/api/visit/${confirm}/confirm` })).statusCode,
    ).toBe(200);
    expect((await bookingRow(t, id)).status).toBe('confirmed');

    const moved = await t.app.inject({
      method: 'POST',
      url: `/api/visit/${reschedule}/reschedule`,
      payload: { date: mediumDay(151), slot: ELEVEN },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // The mail written before the move: its Cancel link no longer works.
    const stale = await t.app.inject({ method: 'POST', url: `/api/visit/${cancel}/cancel` });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(visitLinkMessages.moved);

    const update = await smtp.waitForMail((mail) =>
      (mail.subject ?? '').startsWith('Appointment moved'),
    );
    const [, , newCancel] = linksOf(update, t.app.config.publicUrl);
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/visit/${newCancel}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await bookingRow(t, id)).status).toBe('cancelled');
  });
});
