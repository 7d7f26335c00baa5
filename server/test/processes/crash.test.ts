import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { createTestDatabase, engine, type TestDatabase } from '../helper.js';
import {
  bookingRequest,
  CLEANING_SLOTS,
  call,
  clientAddresses,
  futureIsoDate,
  heldBody,
  killAllPortals,
  logRecords,
  type Patient,
  portalEnv,
  type Reply,
  signUpPatients,
  startPortal,
} from './portal-process.js';

/**
 * Crash safety, with the portal as a real process on a real database file or server: a booking
 * the portal acknowledged (201) survives a SIGKILL, exactly once; a booking it never answered is
 * either there once or not at all, and the patient's retry finds it instead of doubling it. On
 * SIGTERM the portal finishes every request it has taken before it exits.
 */

type Outcome =
  | { kind: 'acknowledged'; id: string }
  | { kind: 'refused'; status: number; body: unknown }
  | { kind: 'no answer'; error: string };

interface StoredBooking {
  id: string;
  date: string;
  slot: string;
  patient_email: string;
}

async function storedBookings(database: TestDatabase): Promise<StoredBooking[]> {
  const handle = await openDatabase(database.config);
  try {
    return await handle.db
      .selectFrom('booking')
      .select(['id', 'date', 'slot', 'patient_email'])
      .execute();
  } finally {
    await handle.close();
  }
}

function say(line: string) {
  // biome-ignore lint/suspicious/noConsole: the figures are the point of these tests.
  console.log(line);
}

describe(`crash safety on ${engine}`, () => {
  let database: TestDatabase;
  let dataDir: string;
  const addresses = clientAddresses();

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-crash-'));
  });
  afterAll(async () => {
    await killAllPortals();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged booking exactly once when killed with SIGKILL mid-stream', async () => {
    const env = portalEnv(database, dataDir);
    const first = await startPortal(env);
    const PATIENTS = 6;
    const DAYS = 80;
    const WORKERS = 8;
    const KILL_AFTER = 60;
    const patients = await signUpPatients(first.url, database, PATIENTS, addresses.next);

    // Request i: patient i % 6, in that patient's own slot, on day i / 6: every request books a
    // different slot, and no patient holds two cleanings on one day.
    const plan = Array.from({ length: PATIENTS * DAYS }, (_, index) => {
      const day = Math.floor(index / PATIENTS);
      const slot = index % PATIENTS;
      const patient = patients[slot] as Patient;
      // How the stored row reads: ISO date, slot label, the patient's address.
      const row = `${futureIsoDate(day)}|${CLEANING_SLOTS[slot]}|${patient.email}`;
      return { patient, row, body: bookingRequest(day, slot) };
    });
    const outcomes = new Map<number, Outcome>();
    let next = 0;
    let acknowledged = 0;
    let killed = false;
    const worker = async () => {
      while (!killed && next < plan.length) {
        const index = next++;
        const { patient, body } = plan[index] as (typeof plan)[number];
        try {
          const reply = await call(first.url, 'POST', '/api/booking', {
            token: patient.token,
            body,
          });
          if (reply.status === 201) {
            const id = (reply.body as { booking: { _id: string } }).booking._id;
            outcomes.set(index, { kind: 'acknowledged', id });
            acknowledged += 1;
            if (acknowledged === KILL_AFTER) {
              killed = true;
              first.child.kill('SIGKILL');
            }
          } else {
            outcomes.set(index, { kind: 'refused', status: reply.status, body: reply.body });
          }
        } catch (error) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          outcomes.set(index, { kind: 'no answer', error: cause?.code ?? cause?.message ?? '' });
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    const ended = await first.exit;
    expect(ended.signal).toBe('SIGKILL');

    const entries = [...outcomes.entries()];
    const acked = entries.filter(([, outcome]) => outcome.kind === 'acknowledged') as Array<
      [number, Extract<Outcome, { kind: 'acknowledged' }>]
    >;
    const unanswered = entries.filter(([, outcome]) => outcome.kind === 'no answer');
    const refused = entries.filter(([, outcome]) => outcome.kind === 'refused');
    expect(refused).toEqual([]);
    expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);

    // The same database, a new process.
    const second = await startPortal(env);
    const stored = await storedBookings(database);
    const byId = new Map<string, number>();
    for (const row of stored) byId.set(row.id, (byId.get(row.id) ?? 0) + 1);
    const found = acked.filter(([, outcome]) => byId.get(outcome.id) === 1);
    // Every stored booking is one the stream sent: acknowledged, or in flight when it was killed.
    const sent = new Set([...acked, ...unanswered].map(([index]) => plan[index]?.row));
    const strangers = stored.filter(
      (row) => !sent.has(`${row.date}|${row.slot}|${row.patient_email}`),
    );
    const keys = new Set(stored.map((row) => `${row.date}|${row.slot}`));
    expect(found).toHaveLength(acked.length);
    expect(strangers).toEqual([]);
    expect(keys.size).toBe(stored.length);
    const committedUnanswered = stored.length - acked.length;
    expect(committedUnanswered).toBeGreaterThanOrEqual(0);
    expect(committedUnanswered).toBeLessThanOrEqual(unanswered.length);

    // Each patient sees their acknowledged bookings, once each, through the restarted portal
    // (their access tokens still work: sessions live in the database).
    for (const patient of patients) {
      const mine = await call(
        second.url,
        'GET',
        `/api/booking?patientMail=${encodeURIComponent(patient.email)}`,
        { token: patient.token },
      );
      expect(mine.status).toBe(200);
      const ids = (mine.body as Array<{ _id: string }>).map((booking) => booking._id);
      expect(new Set(ids).size).toBe(ids.length);
      const expected = acked
        .filter(([index]) => plan[index]?.patient === patient)
        .map(([, outcome]) => outcome.id);
      expect(ids).toEqual(expect.arrayContaining(expected));
    }

    // The patients whose request went unanswered try again: the retry books the slot, or finds
    // the booking that did go through (the spec's conflict, naming it), never a second one.
    let rebooked = 0;
    let alreadyThere = 0;
    for (const [index] of unanswered) {
      const { patient, body } = plan[index] as (typeof plan)[number];
      const retry = await call(second.url, 'POST', '/api/booking', { token: patient.token, body });
      if (retry.status === 201) {
        rebooked += 1;
      } else {
        expect(retry.status).toBe(409);
        expect(retry.body).toMatchObject({
          reason: 'patient',
          booking: { date: body.date, slot: body.slot },
        });
        alreadyThere += 1;
      }
    }
    expect(alreadyThere).toBe(committedUnanswered);
    const after = await storedBookings(database);
    expect(after).toHaveLength(acked.length + unanswered.length);
    expect(new Set(after.map((row) => `${row.date}|${row.slot}`)).size).toBe(after.length);

    say(
      `crash safety (${engine}): ${acked.length + unanswered.length} bookings sent, ` +
        `${acked.length} acknowledged before SIGKILL, ${acked.length} of them found after ` +
        `restart (${found.length} exactly once); ${unanswered.length} unanswered, of which ` +
        `${committedUnanswered} had been stored; retries: ${rebooked} booked, ${alreadyThere} ` +
        `answered 409 with the stored booking; duplicates 0`,
    );

    second.child.kill('SIGTERM');
    expect((await second.exit).code).toBe(0);
  }, 180_000);

  it('finishes every in-flight request on SIGTERM, then exits 0', async () => {
    // At debug, the portal logs each request as it reads it.
    const portal = await startPortal({ ...portalEnv(database, dataDir), LOG_LEVEL: 'debug' });
    const patients = await signUpPatients(portal.url, database, 4, addresses.next);
    const counted = () =>
      logRecords(portal.stdout()).filter((record) => record.msg === 'incoming request').length;
    // The sign-ups' last lines may still be on their way through the pipe after their answers:
    // counted once the log has been still for 200 ms (else one of them counted in the burst).
    let before = counted();
    for (let still = 0; still < 200; still += 20) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (counted() !== before) [before, still] = [counted(), 0];
    }

    const held = patients.map((_, index) => heldBody(bookingRequest(300, index)));
    // A burst of the portal's heavier calls, each on a connection of its own: sign-ups and
    // failed sign-ins (password hashing keeps the server busy), bookings and availability.
    const burst: Array<() => Promise<Reply>> = [
      ...Array.from({ length: 8 }, (_, index) => () => {
        const email = `burst-${index}-${Date.now()}@mail.com`;
        return call(portal.url, 'POST', '/api/auth/sign-up/email', {
          ip: addresses.next(),
          body: { name: `Burst ${index}`, email, password: 'plaque-free-smile-77' },
        });
      }),
      ...patients.map(
        (patient) => () =>
          call(portal.url, 'POST', '/api/auth/sign-in/email', {
            ip: addresses.next(),
            body: { email: patient.email, password: 'not-the-password' },
          }),
      ),
      ...Array.from({ length: 24 }, (_, index) => () => {
        const patient = patients[index % patients.length] as Patient;
        return call(portal.url, 'POST', '/api/booking', {
          token: patient.token,
          body: bookingRequest(200 + Math.floor(index / patients.length), index),
        });
      }),
      ...Array.from(
        { length: 16 },
        (_, index) => () =>
          call(portal.url, 'GET', `/api/available?date=${bookingRequest(200 + index, 0).date}`),
      ),
      // Bookings whose bodies are still arriving at the signal: in flight, whatever the timing.
      ...held.map(
        (body, index) => () =>
          call(portal.url, 'POST', '/api/booking', {
            token: (patients[index] as Patient).token,
            body: body.stream,
          }),
      ),
    ];
    let pending = burst.length;
    const answers = burst.map((send) =>
      send().then(
        (reply) => {
          pending -= 1;
          return reply;
        },
        (error: unknown) => {
          pending -= 1;
          throw error;
        },
      ),
    );
    // SIGTERM once the portal has taken every request of the burst (it logs each one it reads).
    const deadline = Date.now() + 15_000;
    while (counted() - before < burst.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(counted() - before).toBe(burst.length);
    const inFlight = pending;
    const signalled = Date.now();
    portal.child.kill('SIGTERM');
    // The rest of the held bodies, once the portal has had time to start shutting down.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const body of held) body.finish();

    const settled = await Promise.allSettled(answers);
    const exit = await portal.exit;
    const failures = settled.flatMap((result) =>
      result.status === 'rejected'
        ? [String((result.reason as { cause?: unknown }).cause ?? result.reason)]
        : [],
    );
    const statuses = settled.flatMap((result) =>
      result.status === 'fulfilled' ? [result.value.status] : [],
    );
    if (failures.length > 0 || exit.code !== 0) {
      // What the portal said about its shutdown, for whoever reads a failure.
      const shutdown = logRecords(portal.stdout())
        .filter((record) => !/^(incoming request|request completed)$/.test(String(record.msg)))
        .slice(-20)
        .map((record) => record.msg);
      say(`exit ${JSON.stringify(exit)}; portal's last messages: ${JSON.stringify(shutdown)}`);
    }
    expect(failures).toEqual([]);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    // Each kind of call got its expected answer.
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8, 12)).toEqual(Array(4).fill(401));
    expect(statuses.slice(12, 36)).toEqual(Array(24).fill(201));
    expect(statuses.slice(36, 52)).toEqual(Array(16).fill(200));
    expect(statuses.slice(52)).toEqual(Array(held.length).fill(201));
    expect(exit.code).toBe(0);
    expect(portal.stderr()).toBe('');
    expect(inFlight).toBeGreaterThanOrEqual(held.length);
    say(
      `SIGTERM under load (${engine}): ${burst.length} requests taken, ${inFlight} still in ` +
        `flight at SIGTERM; ${statuses.length} complete answers (${
          statuses.filter((status) => status < 300).length
        } 2xx, ${statuses.filter((status) => status >= 400).length} 4xx, 0 5xx), ` +
        `0 reset; exit code ${exit.code} ${exit.at - signalled} ms after the signal`,
    );
  }, 180_000);
});
