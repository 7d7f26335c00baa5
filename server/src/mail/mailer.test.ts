import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { IsoDate } from '@doctors-portal/contract';
import Fastify from 'fastify';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recipientsOf, startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { loadConfig } from '../config/env.js';
import { createMailer, firstLink, MailDeliveryError, type MailLogger } from './mailer.js';
import { bookingConfirmationEmail, verificationEmail } from './templates.js';

const link = 'http://localhost:3000/api/auth/verify-email?token=secret-token-123';

/** A real pino logger (Fastify's) whose JSON lines are kept for the test to read. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'debug', stream } });
  const logger: MailLogger = app.log;
  return { logger, lines };
}

describe('firstLink', () => {
  it('finds the first http(s) link of a text', () => {
    expect(firstLink(`Open: ${link}\n\nor https://example.com`)).toBe(link);
    expect(firstLink('no link here')).toBeUndefined();
  });
});

describe('mailer over SMTP', () => {
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    await smtp.close();
  });

  it('delivers a message with from, to, subject, text and HTML parts and the clinic name', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url, CLINIC_NAME: 'Bright Smile Dental' });
    const { logger, lines } = capturingLogger();
    const mailer = createMailer(config, logger);
    expect(mailer.transport).toBe('smtp');
    expect(mailer.description).toBe(`SMTP at 127.0.0.1:${smtp.port}`);

    const content = verificationEmail({ clinic: config.clinic, name: 'Jane Doe', url: link });
    await mailer.send({ to: 'jane@example.com', ...content });
    mailer.close();

    const mail = await smtp.waitForMail((received) =>
      recipientsOf(received).includes('jane@example.com'),
    );
    expect(mail.envelope).toEqual({
      from: 'no-reply@doctors-portal.test',
      to: ['jane@example.com'],
    });
    expect(mail.from?.value).toEqual([
      { name: 'Bright Smile Dental', address: 'no-reply@doctors-portal.test' },
    ]);
    expect(mail.replyTo?.value[0]?.address).toBe('hello@doctors-portal.test');
    expect(recipientsOf(mail)).toEqual(['jane@example.com']);
    expect(mail.subject).toBe('Verify your email for Bright Smile Dental');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Bright Smile Dental');
    expect(mail.html).toContain('Bright Smile Dental');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.headers.get('content-type')).toMatchObject({ value: 'multipart/alternative' });

    // Production-style delivery never logs the link or its token. The line is written on the
    // event loop's next turn, after what the caller does first (mailer.ts).
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.some((line) => line.msg === 'mail sent over SMTP')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('secret-token-123');
  });

  it('sends the booking confirmation with a text/calendar part and an .ics attachment', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url, CLINIC_TIMEZONE: 'America/New_York' });
    const mailer = createMailer(config);
    const content = bookingConfirmationEmail({
      clinic: config.clinic,
      booking: {
        id: 'b-7',
        patientName: 'Jane Doe',
        treatment: 'Teeth Cleaning',
        isoDate: '2026-01-05' as IsoDate,
        slot: '10:00 AM - 10:30 AM',
        priceDollars: 80,
      },
    });
    await mailer.send({ to: 'jane@example.com', ...content });
    mailer.close();

    const mail = await smtp.waitForMail((received) =>
      /Appointment confirmed/.test(received.subject ?? ''),
    );
    expect(mail.text).toContain('Teeth Cleaning');
    expect(mail.html).toContain('Jan 5, 2026');
    const raw = mail.raw.toString('utf8');
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=PUBLISH/i);
    const ics = mail.attachments.find((attachment) => attachment.filename === 'appointment.ics');
    expect(ics?.contentType).toBe('application/ics');
    const text = ics?.content.toString('utf8') ?? '';
    expect(text).toContain('BEGIN:VCALENDAR\r\n');
    expect(text).toContain('\r\nDTSTART;TZID=America/New_York:20260105T100000\r\n');
    expect(text).toContain('\r\nMETHOD:PUBLISH\r\n');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('logs in with the credentials of SMTP_URL', async () => {
    const secured = await startTestSmtpServer({ auth: { user: 'clinic', pass: 's3cret' } });
    try {
      const good = createMailer(
        loadConfig({ SMTP_URL: `smtp://clinic:s3cret@127.0.0.1:${secured.port}` }),
      );
      await good.send({ to: 'a@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });
      good.close();
      expect((await secured.waitForMail()).subject).toBe('Hello');

      const bad = createMailer(
        loadConfig({ SMTP_URL: `smtp://clinic:wrong-pass@127.0.0.1:${secured.port}` }),
      );
      const failure = await bad
        .send({ to: 'a@example.com', subject: 'Nope', text: 'Hi', html: '<p>Hi</p>' })
        .catch((error: unknown) => error);
      bad.close();
      expect(failure).toBeInstanceOf(MailDeliveryError);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^Could not send "Nope" over SMTP at 127\\.0\\.0\\.1:${secured.port}: .*Invalid`,
        ),
      );
      expect((failure as Error).message).not.toContain('wrong-pass');
      expect(secured.messages).toHaveLength(1);
    } finally {
      await secured.close();
    }
  });

  it('fails with a clear one-line error when the server cannot be reached', async () => {
    const config = loadConfig({ SMTP_URL: smtp.url });
    await smtp.close();
    const mailer = createMailer(config);
    const failure = await mailer
      .send({ to: 'a@example.com', subject: 'Lost', text: 'Hi', html: '<p>Hi</p>' })
      .catch((error: unknown) => error);
    mailer.close();
    expect(failure).toBeInstanceOf(MailDeliveryError);
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^Could not send "Lost" over SMTP at 127\\.0\\.0\\.1:${smtp.port}: .*ECONNREFUSED`,
      ),
    );
    expect((failure as Error).message).not.toContain('\n');
    smtp = await startTestSmtpServer(); // for afterEach
  });

  it('waitForMail names what arrived when nothing matches in time', async () => {
    const mailer = createMailer(loadConfig({ SMTP_URL: smtp.url }));
    await mailer.send({ to: 'a@example.com', subject: 'Other', text: 'Hi', html: '<p>Hi</p>' });
    mailer.close();
    await expect(smtp.waitForMail((mail) => mail.subject === 'Wanted', 200)).rejects.toThrow(
      /No matching mail arrived .* within 200 ms \(received 1: "Other"\)/,
    );
    smtp.clear();
    expect(smtp.messages).toEqual([]);
  });
});

describe('mailer into the outbox', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-mail-'));
  });
  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes each message as an .eml file and logs its link', async () => {
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.mail).toEqual({
      transport: 'outbox',
      dir: path.join(dataDir, 'outbox'),
      from: '"Doctors Portal" <no-reply@doctors-portal.test>',
      ratePerSecond: 10,
    });
    const { logger, lines } = capturingLogger();
    const mailer = createMailer(config, logger);
    expect(mailer.transport).toBe('outbox');

    const content = verificationEmail({ clinic: config.clinic, name: 'Jane Doe', url: link });
    await mailer.send({ to: 'jane@example.com', ...content });
    await mailer.send({ to: 'john@example.com', subject: 'Second', text: 'Hi', html: '<p>Hi</p>' });
    await mailer.send({ to: 'john@example.com', subject: 'Third', text: 'Hi', html: '<p>Hi</p>' });
    mailer.close();

    const outbox = path.join(dataDir, 'outbox');
    const files = fs.readdirSync(outbox).sort();
    expect(files).toHaveLength(3);
    for (const file of files) expect(file).toMatch(/^\d{8}T\d{9}Z-\d{6}-[0-9a-f]{8}\.eml$/);

    const raw = fs.readFileSync(path.join(outbox, files[0] as string));
    expect(raw.toString('latin1').replace(/\r\n/g, '')).not.toMatch(/\n/); // CRLF throughout
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe('Verify your email for Doctors Portal');
    expect(mail.from?.value).toEqual([
      { name: 'Doctors Portal', address: 'no-reply@doctors-portal.test' },
    ]);
    expect(recipientsOf(mail)).toEqual(['jane@example.com']);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('Doctors Portal');
    expect(
      (await simpleParser(fs.readFileSync(path.join(outbox, files[2] as string)))).subject,
    ).toBe('Third');

    const logged = lines.find(
      (line) => line.msg === `mail to jane@example.com written to the outbox; open ${link}`,
    );
    expect(logged).toMatchObject({
      level: 30,
      mail: { to: 'jane@example.com', link, file: path.join(outbox, files[0] as string) },
    });
    expect(lines.filter((line) => (line.level as number) >= 40)).toEqual([]);
  });

  it('in production warns that mail is not delivered and never logs links', async () => {
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'production' });
    const { logger, lines } = capturingLogger();
    const mailer = createMailer(config, logger);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/SMTP_URL is not set/) }),
    ]);
    await mailer.send({
      to: 'jane@example.com',
      ...verificationEmail({ clinic: config.clinic, name: 'Jane', url: link }),
    });
    expect(fs.readdirSync(path.join(dataDir, 'outbox'))).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('secret-token-123');
  });

  it('fails with a clear error when the outbox cannot be written', async () => {
    const blocked = path.join(dataDir, 'not-a-dir');
    fs.writeFileSync(blocked, 'a file where the outbox should be');
    const config = loadConfig({ DATA_DIR: blocked });
    const mailer = createMailer(config);
    await expect(
      mailer.send({ to: 'a@example.com', subject: 'Stuck', text: 'Hi', html: '<p>Hi</p>' }),
    ).rejects.toThrow(/^Could not write "Stuck" to the outbox .*not-a-dir\/outbox: /);
  });
});
