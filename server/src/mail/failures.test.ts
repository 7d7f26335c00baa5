import type { MailFailures } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { failedMail } from '../../test/mail-fixtures.js';
import { type Patient, signedUpAdmin } from '../../test/payment-fixtures.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { mailErrors } from './routes.js';

/**
 * The back office's failed mail (issue 16): `GET /api/mail/failures` lists what the portal could
 * not send, newest first; `POST /api/mail/failures/{id}/retry` makes one due again now.
 */
describe(`failed mail (${engine})`, () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Patient;

  const list = async () => {
    const response = await t.app.inject({
      url: '/api/mail/failures',
      headers: bearer(admin.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as MailFailures).failures;
  };
  const retry = (id: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/mail/failures/${encodeURIComponent(id)}/retry`,
      headers: bearer(admin.token),
    });

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({ env: { SMTP_URL: smtp.url, MAIL_RATE: '1000' } });
    admin = await signedUpAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('lists given-up and retrying messages newest first, not those never tried or in hand', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const givenUp = await failedMail(t.db, {
      to: 'old@mail.com',
      createdAt: new Date(Date.now() - 120_000),
    });
    const retrying = await failedMail(t.db, {
      to: 'new@mail.com',
      createdAt: new Date(Date.now() - 60_000),
      sendAfter: later,
    });
    // Due later and never tried (a reminder): not a failure.
    await t.app.mailQueue.add(
      t.db,
      { kind: 'contact-message', to: 'pending@mail.com', message: anyMessage },
      { sendAfter: later },
    );

    const failures = await list();
    expect(failures.map((failure) => failure.id)).toEqual([retrying, givenUp]);
    expect(failures[0]).toEqual({
      id: retrying,
      kind: 'contact-message',
      to: 'new@mail.com',
      attempts: 10,
      lastError: expect.stringContaining('ECONNREFUSED'),
      nextAttemptAt: later.toISOString(),
      createdAt: expect.any(String),
    });
    expect(failures[1]).toMatchObject({ id: givenUp, nextAttemptAt: null });
  });

  it('sends a failed message again at once on retry: 204, then it leaves the list', async () => {
    const id = await failedMail(t.db, { to: 'retry-me@mail.com' });
    const response = await retry(id);
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    const mail = await smtp.waitForMail((m) => m.envelope.to.includes('retry-me@mail.com'));
    expect(mail.subject).toBe('Contact form: A question');
    await expect
      .poll(async () => (await list()).map((failure) => failure.id), { timeout: 5_000 })
      .not.toContain(id);
  });

  it('answers 404 for a message that is not there, not failed, or a malformed id', async () => {
    await t.app.mailQueue.add(
      t.db,
      { kind: 'contact-message', to: 'pending@mail.com', message: anyMessage },
      { sendAfter: new Date(Date.now() + 3_600_000) },
    );
    const [pending] = await t.db
      .selectFrom('mail_queue')
      .select('id')
      .where('last_error', 'is', null)
      .execute();
    for (const id of ['4b0f8a57-58a8-4a9b-9a55-8c3b0e9d1c11', 'not-a-uuid', 'x'.repeat(200)]) {
      const response = await retry(id);
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ message: mailErrors.noSuchFailure });
    }
    expect((await retry(String(pending?.id))).statusCode).toBe(404);
  });
});

const anyMessage = {
  id: 'c0ffee00-0000-4000-8000-000000000000',
  email: 'visitor@mail.com',
  subject: 'A question',
  message: 'Hello',
  receivedAt: new Date(0).toISOString(),
};
