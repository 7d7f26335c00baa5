import {
  CONTACT_MESSAGE_MAX,
  CONTACT_SUBJECT_MAX,
  type ContactMessage,
  contactSentMessage,
} from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { recipientsOf, startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { CONTACT_RATE_LIMIT, contactErrors } from './routes.js';

let client = 0;
/** Each visitor writes from an address of their own unless told otherwise. */
const nextAddress = () => {
  client += 1;
  return `10.77.${Math.floor(client / 250) % 250}.${(client % 250) + 1}`;
};

/**
 * The landing page's Contact Us form reaches the clinic: `POST /api/contact` stores the message
 * and mails it to CLINIC_EMAIL through the mail queue; the clinic's administrators read the
 * messages at `GET /api/contact-messages` and mark them read or unread.
 */
describe(`contact messages (${engine})`, () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: Person;
  let patient: Person;

  const send = (body: Record<string, unknown>, ip = nextAddress()) =>
    t.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: ip, payload: body });
  const stored = () =>
    t.db.selectFrom('contact_message').selectAll().orderBy('created_at').execute();
  const list = (query = '', token = admin.token) =>
    t.app.inject({ method: 'GET', url: `/api/contact-messages${query}`, headers: bearer(token) });
  const mark = (id: string, read: unknown, token = admin.token) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/contact-messages/${id}`,
      headers: bearer(token),
      payload: { read },
    });

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    t = await buildTestApp({
      env: { SMTP_URL: smtp.url, CLINIC_EMAIL: 'front-desk@clinic.test' },
    });
    admin = await signedUpAdmin(t.app, 'Audrey Admin');
    patient = await signedUp(t.app, 'Percy Patient');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('stores a message, answers 201, and mails it to the clinic with a plain-text part', async () => {
    const response = await send({
      email: 'Visitor@Example.com',
      subject: 'Question about whitening',
      message: 'How long does a whitening take?\nAnd <b>does it hurt</b>?',
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ success: true, message: contactSentMessage });
    const [row] = await stored();
    expect(row).toMatchObject({
      email: 'visitor@example.com',
      subject: 'Question about whitening',
      message: 'How long does a whitening take?\nAnd <b>does it hurt</b>?',
      read_at: null,
    });

    const mail = await smtp.waitForMail((m) => m.subject?.startsWith('Contact form') ?? false);
    expect(mail.subject).toBe('Contact form: Question about whitening');
    expect(recipientsOf(mail)).toEqual(['front-desk@clinic.test']);
    expect(mail.replyTo?.value.map((address) => address.address)).toEqual(['visitor@example.com']);
    expect(mail.text).toContain('From: visitor@example.com');
    expect(mail.text).toContain('How long does a whitening take?\nAnd <b>does it hurt</b>?');
    expect(mail.text).toContain('/dashboard/messages');
    // The visitor's words are escaped in the HTML part.
    expect(mail.html).toContain('&lt;b&gt;does it hurt&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>does it hurt</b>');
  });

  it('takes a message with only an email address (the spec puts no rule on the rest)', async () => {
    const response = await send({ email: 'brief@example.com' });
    expect(response.statusCode).toBe(201);
    const mail = await smtp.waitForMail((m) => (m.text ?? '').includes('brief@example.com'));
    expect(mail.subject).toBe('Contact form: A message from the website');
  });

  it('answers 400 with the reasons, and stores and mails nothing', async () => {
    const before = (await stored()).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ subject: 'Hi', message: 'Hello' }, 'email', 'Email is Required'],
      [{ email: 'not-an-address', message: 'Hello' }, 'email', 'Provide a valid Email'],
      [
        { email: 'long@example.com', subject: 's'.repeat(CONTACT_SUBJECT_MAX + 1) },
        'subject',
        'Subject must be 200 characters or shorter',
      ],
      [
        { email: 'long@example.com', message: 'm'.repeat(CONTACT_MESSAGE_MAX + 1) },
        'message',
        'Message must be 5000 characters or shorter',
      ],
      [{ email: 'typed@example.com', message: 42 }, 'message', 'Message must be text'],
      [
        { email: 'bidi@example.com', subject: 'Invoice \u202egpj.exe' },
        'subject',
        'Subject must not contain line breaks, control or text-direction characters',
      ],
      [
        { email: 'crlf@example.com', subject: 'Hello\r\nBcc: x@example.com' },
        'subject',
        'Subject must not contain line breaks, control or text-direction characters',
      ],
      [
        { email: 'bell@example.com', message: 'Ring \u0007' },
        'message',
        'Message must not contain control or text-direction characters',
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await send(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().issues).toContainEqual({ field, message });
    }
    expect(await stored()).toHaveLength(before);
  });

  it('takes a subject and a message at their limits', async () => {
    const response = await send({
      email: 'limits@example.com',
      subject: 's'.repeat(CONTACT_SUBJECT_MAX),
      message: 'm'.repeat(CONTACT_MESSAGE_MAX),
    });
    expect(response.statusCode).toBe(201);
    const lines = await send({ email: 'lines@example.com', message: 'Line one\r\n\tLine two' });
    expect(lines.statusCode).toBe(201);
  });

  it('answers a bot that fills the hidden field as it would a person, and keeps nothing', async () => {
    smtp.clear();
    const before = (await stored()).length;
    const response = await send({
      email: 'bot@spam.com',
      subject: 'Cheap pills',
      message: 'Buy now',
      website: 'https://spam.example',
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ success: true, message: contactSentMessage });
    expect(await stored()).toHaveLength(before);
    const queued = await t.db
      .selectFrom('mail_queue')
      .select('payload')
      .where('kind', '=', 'contact-message')
      .execute();
    expect(queued.some((row) => row.payload.includes('bot@spam.com'))).toBe(false);
    expect(smtp.messages.some((m) => (m.text ?? '').includes('bot@spam.com'))).toBe(false);
  });

  it('limits each client address, answering 429 with Retry-After and a reason', async () => {
    const ip = nextAddress();
    for (let n = 0; n < CONTACT_RATE_LIMIT.max; n += 1) {
      expect((await send({ email: `burst${n}@example.com` }, ip)).statusCode).toBe(201);
    }
    const before = (await stored()).length;

    const refused = await send({ email: 'one-too-many@example.com' }, ip);

    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toBe(contactErrors.tooMany(15));
    expect(await stored()).toHaveLength(before);
    // Another visitor is not held back by it.
    expect((await send({ email: 'neighbour@example.com' })).statusCode).toBe(201);
  });

  it('lists messages newest first for administrators, with the counts in headers', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const messages = response.json() as ContactMessage[];
    const total = (await stored()).length;
    expect(response.headers['x-total-count']).toBe(String(total));
    expect(response.headers['x-unread-count']).toBe(String(total));
    expect(messages[0]).toEqual({
      _id: expect.any(String),
      email: 'neighbour@example.com',
      subject: '',
      message: '',
      createdAt: expect.any(String),
      read: false,
    });
    const times = messages.map((message) => message.createdAt);
    expect(times).toEqual([...times].sort().reverse());

    const firstPage = (await list('?limit=2')).json() as ContactMessage[];
    const secondPage = (await list('?limit=2&offset=2')).json() as ContactMessage[];
    expect([...firstPage, ...secondPage].map((m) => m._id)).toEqual(
      messages.slice(0, 4).map((m) => m._id),
    );
  });

  it('marks a message read and unread; the unread filter and count follow', async () => {
    const [message] = (await list()).json() as ContactMessage[];
    const id = message?._id ?? '';

    const read = await mark(id, true);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ _id: id, read: true });
    const unread = await list('?unread=true');
    expect((unread.json() as ContactMessage[]).map((m) => m._id)).not.toContain(id);
    expect(Number(unread.headers['x-unread-count'])).toBe((await stored()).length - 1);

    expect((await mark(id, false)).json()).toMatchObject({ _id: id, read: false });
    expect(((await list('?unread=true')).json() as ContactMessage[])[0]?._id).toBe(id);
  });

  it('answers 404 for an unknown message and 400 for a body that is not {read: boolean}', async () => {
    expect((await mark('no-such-message', true)).statusCode).toBe(404);
    const [message] = (await list()).json() as ContactMessage[];
    expect((await mark(message?._id ?? '', 'yes')).statusCode).toBe(400);
  });

  it('is for administrators only: 401 without a session, 403 for a patient', async () => {
    expect((await t.app.inject('/api/contact-messages')).statusCode).toBe(401);
    expect((await list('', patient.token)).statusCode).toBe(403);
    const [message] = (await list()).json() as ContactMessage[];
    expect((await mark(message?._id ?? '', true, patient.token)).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: `/api/contact-messages/${message?._id}`,
      payload: { read: true },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
