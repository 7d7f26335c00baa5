import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clinicDay, mediumDay } from '../../test/dates.js';
import { createTestDatabase, engine, type TestDatabase } from '../../test/helper.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.js';
import { loadConfig } from '../config/env.js';
import type { DatabaseHandle } from '../db/database.js';
import { prepareDatabase } from '../db/prepare.js';
import { createMailer, type MailLogger } from './mailer.js';
import {
  MAX_ATTEMPTS,
  type MailQueue,
  type MailQueueOptions,
  mailQueue,
  type QueuedMail,
} from './queue.js';

const booking = {
  id: '6f1c3c52-2b7e-4b39-9b1f-0d7f4b8e2a11',
  patientName: 'Jane Doe',
  treatment: 'Teeth Orthodontics',
  isoDate: clinicDay(152),
  slot: '10:00 AM - 10:30 AM',
  priceDollars: 25,
};
const confirmation = (to: string): QueuedMail => ({ kind: 'booking-confirmation', to, booking });

interface Logged {
  level: 'warn' | 'error';
  message: string;
}

describe(`mail queue (${engine})`, () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let smtp: TestSmtpServer;
  let logged: Logged[];
  const queues: MailQueue[] = [];

  const log: MailLogger = {
    info: () => {},
    warn: (_fields: unknown, message?: string) =>
      logged.push({ level: 'warn', message: `${message}` }),
    error: (_fields: unknown, message?: string) =>
      logged.push({ level: 'error', message: `${message}` }),
  } as MailLogger;

  /** A portal instance's queue, sending through `smtpUrl` (the stand-in by default). */
  function start(
    options: {
      smtpUrl?: string;
      ratePerSecond?: number;
      db?: DatabaseHandle['db'];
      actionLinks?: MailQueueOptions['actionLinks'];
    } = {},
  ) {
    const config = loadConfig({ SMTP_URL: options.smtpUrl ?? smtp.url });
    const queue = mailQueue({
      db: options.db ?? database.db,
      engine: database.engine,
      mailer: createMailer(config),
      clinic: config.clinic,
      appointmentsUrl: 'http://portal.test/dashboard',
      ratePerSecond: options.ratePerSecond ?? 50,
      log,
      ...(options.actionLinks ? { actionLinks: options.actionLinks } : {}),
    });
    queues.push(queue);
    return queue;
  }

  const rows = () => database.db.selectFrom('mail_queue').selectAll().execute();

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  beforeEach(async () => {
    logged = [];
    testDatabase = await createTestDatabase();
    database = await prepareDatabase(testDatabase.config);
    smtp = await startTestSmtpServer();
  });

  afterEach(async () => {
    await Promise.all(queues.splice(0).map((queue) => queue.close()));
    await smtp.close();
    await database.close();
    await testDatabase.drop();
  });

  it('sends a committed message, written when it is sent, and forgets it', async () => {
    const queue = start();
    await database.db.transaction().execute((tx) => queue.add(tx, confirmation('jane@mail.com')));
    queue.wake();

    const mail = await smtp.waitForMail((m) => m.envelope.to.includes('jane@mail.com'));
    expect(mail.subject).toContain(mediumDay(152));
    expect(mail.text).toContain('10:00 AM - 10:30 AM');
    expect(mail.text).toContain('http://portal.test/dashboard');
    expect(mail.attachments.some((file) => file.contentType.startsWith('text/calendar'))).toBe(
      true,
    );
    await until(rows, (left) => left.length === 0);
  });

  it('never sends a message whose transaction was rolled back', async () => {
    const queue = start();
    await expect(
      database.db.transaction().execute(async (tx) => {
        await queue.add(tx, confirmation('rolled-back@mail.com'));
        throw new Error('the booking failed');
      }),
    ).rejects.toThrow('the booking failed');
    await queue.add(database.db, confirmation('kept@mail.com'));
    queue.wake();

    await smtp.waitForMail((m) => m.envelope.to.includes('kept@mail.com'));
    await until(rows, (left) => left.length === 0);
    expect(smtp.messages.flatMap((m) => m.envelope.to)).toEqual(['kept@mail.com']);
  });

  it('keeps a message the relay refused, with the reason, for a later attempt', async () => {
    const queue = start({ smtpUrl: 'smtp://127.0.0.1:1' });
    await queue.add(database.db, confirmation('later@mail.com'));
    queue.wake();

    const [row] = await until(rows, (left) => left[0]?.last_error != null);
    expect(row?.attempts).toBe(1);
    expect(row?.last_error).toMatch(/Could not send .* over SMTP at 127\.0\.0\.1:1/);
    // Tried again about 30 s later, not at once.
    const wait = new Date(String(row?.send_after)).getTime() - Date.now();
    expect(wait).toBeGreaterThan(20_000);
    expect(wait).toBeLessThanOrEqual(30_000);
    expect(logged).toEqual([
      {
        level: 'warn',
        message: 'could not send a booking-confirmation message; it will be tried again',
      },
    ]);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts and keeps the message with its error`, async () => {
    const queue = start({ smtpUrl: 'smtp://127.0.0.1:1' });
    await queue.add(database.db, confirmation('nobody@mail.com'));
    await database.db
      .updateTable('mail_queue')
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .execute();
    queue.wake();

    const [row] = await until(rows, (left) => left[0]?.last_error != null);
    expect(row).toMatchObject({ attempts: MAX_ATTEMPTS, send_after: null });
    expect(logged.map((entry) => entry.level)).toEqual(['error']);
  });

  it('removes a sent message once the database answers again, without sending it twice', async () => {
    // The database fails the first delete of a sent message, as a dropped connection would.
    let failures = 1;
    const flaky = database.db.withPlugin({
      transformQuery(args) {
        if (args.node.kind === 'DeleteQueryNode' && failures > 0) {
          failures -= 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const queue = start({ db: flaky });
    await queue.add(database.db, confirmation('once@mail.com'));
    queue.wake();

    await smtp.waitForMail((m) => m.envelope.to.includes('once@mail.com'));
    await until(rows, (left) => left.length === 0);
    expect(failures).toBe(0);
    expect(smtp.messages.flatMap((m) => m.envelope.to)).toEqual(['once@mail.com']);
    expect(logged).toEqual([]);
  });

  it('asks for the one-tap links when it sends a confirmation, and writes them in', async () => {
    const asked: unknown[] = [];
    const queue = start({
      actionLinks: async (about) => {
        asked.push(about);
        // Only for the moved booking's revision; none otherwise.
        return about.sequence === 2
          ? {
              confirm: 'http://portal.test/visit/yes',
              reschedule: 'http://portal.test/visit/move',
              cancel: 'http://portal.test/visit/no',
            }
          : null;
      },
    });
    await queue.add(database.db, {
      kind: 'booking-confirmation',
      to: 'links@mail.com',
      booking: { ...booking, sequence: 2 },
    });
    await queue.add(database.db, confirmation('no-links@mail.com'));
    queue.wake();

    const withLinks = await smtp.waitForMail((m) => m.envelope.to.includes('links@mail.com'));
    expect(withLinks.text).toContain('Confirm: http://portal.test/visit/yes');
    expect(withLinks.text).toContain('Cancel: http://portal.test/visit/no');
    const without = await smtp.waitForMail((m) => m.envelope.to.includes('no-links@mail.com'));
    expect(without.text).not.toContain('Confirm:');
    // Asked once per message, with what the links are bound to (the queue's order aside).
    expect(asked).toHaveLength(2);
    for (const sequence of [2, 0]) {
      expect(asked).toContainEqual({
        id: booking.id,
        sequence,
        date: booking.isoDate,
        slot: booking.slot,
      });
    }
  });

  it('sends what an instance left unsent when the next one starts', async () => {
    const stopped = start();
    await stopped.close();
    await stopped.add(database.db, confirmation('left-over@mail.com'));

    start();
    await smtp.waitForMail((m) => m.envelope.to.includes('left-over@mail.com'));
  });

  it('sends each message once when several instances share the table', async () => {
    const first = start();
    const second = start();
    const third = start();
    const addresses = Array.from({ length: 12 }, (_, i) => `patient-${i}@mail.com`);
    for (const address of addresses) await first.add(database.db, confirmation(address));
    for (const queue of [first, second, third]) queue.wake();

    await until(rows, (left) => left.length === 0);
    const received = smtp.messages.flatMap((m) => m.envelope.to);
    expect(received.toSorted()).toEqual(addresses.toSorted());
  });

  it('hands messages to the relay no faster than its rate', async () => {
    const queue = start({ ratePerSecond: 10 });
    for (let i = 0; i < 4; i += 1) await queue.add(database.db, confirmation(`r${i}@mail.com`));
    const started = Date.now();
    queue.wake();
    await until(rows, (left) => left.length === 0);
    // Four messages at ten a second: at least three gaps of 100 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(smtp.messages).toHaveLength(4);
  });
});
