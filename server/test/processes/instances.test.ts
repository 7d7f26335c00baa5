import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURES } from '../../src/auth/login-failures.js';
import { AVAILABILITY_CACHE_MS } from '../../src/bookings/availability-cache.js';
import { openDatabase } from '../../src/db/database.js';
import { KEPT_MS } from '../../src/http/kept-between-writes.js';
import { createTestDatabase, engine, type TestDatabase } from '../helper.js';
import { connectTestRedis, REDIS_REQUIRED, TEST_REDIS_URL } from '../redis.js';
import {
  type Account,
  accessToken,
  bookingRequest,
  CLEANING_SLOTS,
  call,
  clientAddresses,
  futureIsoDate,
  insertPatients,
  killAllPortals,
  type Patient,
  type PortalProcess,
  portalEnv,
  signIn,
  signUpPatients,
  startPortal,
} from './portal-process.js';

/**
 * Several instances: two portal processes on different ports against one PostgreSQL database
 * and one Redis, as two machines behind a load balancer. Sessions, tokens, bookings and rate
 * limits live outside the processes, so it does not matter which instance a request reaches.
 *
 * PostgreSQL only: SQLite serves one process (docs/decisions/001), so on SQLite there is
 * nothing to test here. Redis is the one at TEST_REDIS_URL (default redis://127.0.0.1:6379);
 * when it is unreachable the suite fails under CI=true and is skipped otherwise.
 */

/** The prefix the portal gives its rate-limit keys in Redis (auth/rate-limit-store.ts). */
const PREFIX = 'portal:rate:';

function say(line: string) {
  // biome-ignore lint/suspicious/noConsole: the figures are the point of these tests.
  console.log(line);
}

/** Deletes the keys a run left in Redis: those naming its client addresses or its accounts. */
async function deleteKeys(redis: Redis, patterns: string[]): Promise<number> {
  let deleted = 0;
  for (const pattern of patterns) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  }
  return deleted;
}

/** CPU seconds a process has used (Linux /proc; clock ticks of 1/100 s), or NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

describe.skipIf(engine !== 'postgres')(
  'several instances (PostgreSQL only: SQLite serves one process, see docs/decisions/001)',
  () => {
    let redis: Redis | null = null;
    let unreachable = '';
    let database: TestDatabase;
    const dataDirs: string[] = [];
    let a: PortalProcess;
    let b: PortalProcess;
    const addresses = clientAddresses();
    const accounts: string[] = [];

    beforeAll(async () => {
      const connected = await connectTestRedis();
      if (typeof connected === 'string') {
        unreachable = connected;
        if (REDIS_REQUIRED) {
          throw new Error(
            `${unreachable}: CI=true requires it for the several-instances test; start Redis or set TEST_REDIS_URL`,
          );
        }
        say(`several instances: skipped, ${unreachable}; start Redis or set TEST_REDIS_URL`);
        return;
      }
      redis = connected;
      database = await createTestDatabase();
      const env = () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-instance-'));
        dataDirs.push(dataDir);
        return { ...portalEnv(database, dataDir), REDIS_URL: TEST_REDIS_URL };
      };
      // Both start at once on an empty database: the migrator's lock lets one apply the schema.
      [a, b] = await Promise.all([startPortal(env()), startPortal(env())]);
    }, 120_000);

    afterAll(async () => {
      await killAllPortals();
      await database?.drop();
      for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      if (redis) {
        await deleteKeys(redis, [
          `${PREFIX}${addresses.prefix}*`,
          ...accounts.map((email) => `${PREFIX}login-failures:${email}`),
        ]);
        await redis.quit();
      }
    });

    it('lets exactly one of the bookings of a slot through, whichever instance each reaches', async (context) => {
      if (!redis) return context.skip(unreachable);
      // Two patients signed up on each instance; each patient's token is used on both.
      const patients = [
        ...(await signUpPatients(a.url, database, 2, addresses.next)),
        ...(await signUpPatients(b.url, database, 2, addresses.next)),
      ];
      const ROUNDS = 12;
      const wins = { a: 0, b: 0 };
      for (let round = 0; round < ROUNDS; round += 1) {
        const body = bookingRequest(300 + round, round);
        const via = patients.map((_, index) => ((index + round) % 2 === 0 ? a : b));
        const replies = await Promise.all(
          patients.map((patient, index) =>
            call((via[index] as PortalProcess).url, 'POST', '/api/booking', {
              token: patient.token,
              body,
            }),
          ),
        );
        const statuses = replies.map((reply) => reply.status);
        expect(statuses.filter((status) => status === 201)).toHaveLength(1);
        expect(statuses.filter((status) => status === 409)).toHaveLength(patients.length - 1);
        for (const reply of replies) {
          if (reply.status === 409) expect(reply.body).toMatchObject({ reason: 'slot' });
        }
        if (via[statuses.indexOf(201)] === a) wins.a += 1;
        else wins.b += 1;
      }
      const handle = await openDatabase(database.config);
      try {
        const rows = await handle.db
          .selectFrom('booking')
          .select(['date', 'slot'])
          .where('date', '>=', futureIsoDate(300))
          .where('date', '<', futureIsoDate(300 + ROUNDS))
          .execute();
        expect(rows).toHaveLength(ROUNDS);
        expect(new Set(rows.map((row) => `${row.date}|${row.slot}`)).size).toBe(ROUNDS);
      } finally {
        await handle.close();
      }
      say(
        `several instances: ${ROUNDS} slots raced by ${patients.length} patients each through ` +
          `two instances: ${ROUNDS} bookings won (1 per slot; ${wins.a} through A, ${wins.b} ` +
          `through B), ${ROUNDS * (patients.length - 1)} answered 409 'slot'`,
      );
    }, 60_000);

    it('accepts on one instance the session and the access token issued by the other', async (context) => {
      if (!redis) return context.skip(unreachable);
      const [account] = (await signUpPatients(a.url, database, 1, addresses.next)) as [Account];
      // Signed in on B; the cookie buys a token on A; that token works on both.
      const session = await signIn(b.url, account.email, account.password, addresses.next());
      expect(session.status).toBe(200);
      const issued = await accessToken(a.url, account.email, session.cookie);
      expect(issued.status).toBe(200);
      const token = (issued.body as { token: string }).token;
      const mine = `/api/booking?patientMail=${encodeURIComponent(account.email)}`;
      expect((await call(b.url, 'GET', mine, { token })).status).toBe(200);
      expect((await call(a.url, 'GET', mine, { token })).status).toBe(200);
      // Signing out on A ends the session everywhere: A refuses the token at once, B as soon as
      // A's news of the write reaches it through Redis, not a kept caller's second later
      // (decision 039).
      const out = await call(a.url, 'POST', '/api/auth/sign-out', {
        cookie: session.cookie,
        body: {},
      });
      expect(out.status).toBe(200);
      const signedOutAt = Date.now();
      expect((await call(a.url, 'GET', mine, { token })).status).toBe(401);
      let onB = 200;
      while (onB === 200 && Date.now() - signedOutAt < 10 * KEPT_MS) {
        onB = (await call(b.url, 'GET', mine, { token })).status;
        if (onB === 200) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const refusedAfter = Date.now() - signedOutAt;
      expect(onB).toBe(401);
      expect(refusedAfter).toBeLessThan(KEPT_MS / 2);
      say(
        'several instances: signed in on B, token issued on A, accepted on A and B; ' +
          `signed out on A, the token refused on A at once and on B after ${refusedAfter} ms (401)`,
      );
    }, 60_000);

    it('shows on one instance at once a slot booked through the other', async (context) => {
      if (!redis) return context.skip(unreachable);
      const [patient] = (await insertPatients(database, 1)) as [Patient];
      const request = bookingRequest(400, 0);
      const slot = request.slot as string;
      const day = `/api/available?date=${encodeURIComponent(request.date)}`;
      const freeOnB = async () => {
        const reply = await call(b.url, 'GET', day);
        expect(reply.status).toBe(200);
        const treatments = reply.body as Array<{ _id: string; slots: string[] }>;
        return treatments.find((t) => t._id === request.treatmentId)?.slots.includes(slot);
      };
      // B works out the day's answer and keeps it; then the slot is booked through A.
      expect(await freeOnB()).toBe(true);
      const booked = await call(a.url, 'POST', '/api/booking', {
        token: patient.token,
        body: request,
      });
      expect(booked.status).toBe(201);
      const bookedAt = Date.now();
      let free = await freeOnB();
      while (free && Date.now() - bookedAt < 10 * AVAILABILITY_CACHE_MS) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        free = await freeOnB();
      }
      const goneAfter = Date.now() - bookedAt;
      expect(free).toBe(false);
      // Not the second B keeps a day's answer: A's news of the day.
      expect(goneAfter).toBeLessThan(AVAILABILITY_CACHE_MS / 2);
      say(`several instances: a slot booked through A left B's availability after ${goneAfter} ms`);
    }, 60_000);

    it('throttles failed sign-ins across both instances, in Redis', async (context) => {
      if (!redis) return context.skip(unreachable);
      const [victim] = (await signUpPatients(a.url, database, 1, addresses.next)) as [Account];
      accounts.push(victim.email);
      // Wrong passwords, alternately on A and B, each from a new address (so only the
      // per-account throttle can stop them) until one is refused.
      const attempts: Array<{ instance: 'A' | 'B'; status: number; ms: number }> = [];
      while (attempts.length < 20 && attempts.at(-1)?.status !== 429) {
        const instance = attempts.length % 2 === 0 ? 'A' : 'B';
        const at = performance.now();
        const { status } = await signIn(
          (instance === 'A' ? a : b).url,
          victim.email,
          'not-my-password',
          addresses.next(),
        );
        attempts.push({ instance, status, ms: performance.now() - at });
      }
      const statuses = attempts.map((attempt) => attempt.status);
      expect(statuses).toEqual([...Array(LOGIN_FAILURES.max).fill(401), 429]);
      expect(attempts.filter((attempt) => attempt.instance === 'A')).toHaveLength(5);
      // The count lives in Redis, not in either process: every attempt, the refused one too
      // (each is counted before its password is checked).
      expect(await redis.get(`${PREFIX}login-failures:${victim.email}`)).toBe(
        String(LOGIN_FAILURES.max + 1),
      );
      // Even the right password waits now, on either instance.
      const right = await signIn(b.url, victim.email, victim.password, addresses.next());
      expect(right.status).toBe(429);

      // Per client: one address, unknown accounts, alternately on A and B: the auth library's
      // sign-in limit (10 a minute) counts both instances' attempts together.
      const ip = addresses.next();
      const perClient: number[] = [];
      while (perClient.length < 20 && perClient.at(-1) !== 429) {
        const email = `nobody-${perClient.length}-${victim.email}`;
        accounts.push(email);
        const instance = perClient.length % 2 === 0 ? a : b;
        perClient.push((await signIn(instance.url, email, 'whatever-it-is', ip)).status);
      }
      expect(perClient).toEqual([...Array(10).fill(401), 429]);
      say(
        `several instances: failed sign-ins for one account, alternating A/B from new addresses: ` +
          `${LOGIN_FAILURES.max} answered 401 (${attempts.filter((x) => x.instance === 'A' && x.status === 401).length} ` +
          `on A, ${attempts.filter((x) => x.instance === 'B' && x.status === 401).length} on B), ` +
          `attempt ${attempts.length} answered 429 (the right password too); a failed sign-in ` +
          `takes ${percentile(
            attempts.filter((x) => x.status === 401).map((x) => x.ms),
            50,
          ).toFixed(0)} ms (p50, password hashing included); one address ` +
          `alternating A/B: 10 answered 401, attempt 11 answered 429`,
      );
    }, 60_000);

    it('measures bookings per second through one instance and through two', async (context) => {
      if (!redis) return context.skip(unreachable);
      const PATIENTS = CLEANING_SLOTS.length;
      const SECONDS = 2;
      const patients = await insertPatients(database, PATIENTS);

      /** Each patient books their own slot day after day for `seconds`, through `targets`. */
      const measure = async (targets: PortalProcess[], firstDay: number, seconds = SECONDS) => {
        const latencies: number[] = [];
        const statuses = new Map<number, number>();
        const end = Date.now() + seconds * 1000;
        const started = Date.now();
        const cpuBefore = targets.map((target) => cpuSeconds(target.child.pid));
        let sent = 0;
        await Promise.all(
          patients.map(async (patient: Patient, slot) => {
            for (let day = firstDay; Date.now() < end; day += 1) {
              const target = targets[sent++ % targets.length] as PortalProcess;
              const at = performance.now();
              const reply = await call(target.url, 'POST', '/api/booking', {
                token: patient.token,
                body: bookingRequest(day, slot),
              });
              latencies.push(performance.now() - at);
              statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
            }
          }),
        );
        const elapsed = (Date.now() - started) / 1000;
        const cpu = targets.reduce(
          (sum, target, index) => sum + cpuSeconds(target.child.pid) - (cpuBefore[index] ?? 0),
          0,
        );
        const booked = statuses.get(201) ?? 0;
        expect([...statuses.keys()]).toEqual([201]);
        return {
          perSecond: booked / elapsed,
          cpuMsPerBooking: (cpu * 1000) / booked,
          booked,
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
        };
      };
      // A short warm-up on each instance, then the two runs.
      await measure([a, b], 1000, 0.5);
      const one = await measure([a], 2000);
      const two = await measure([a, b], 3000);
      const line = (label: string, run: Awaited<ReturnType<typeof measure>>) =>
        `${label}: ${run.perSecond.toFixed(0)} bookings/s (${run.booked} in ${SECONDS} s, ` +
        `p50 ${run.p50.toFixed(1)} ms, p95 ${run.p95.toFixed(1)} ms, ` +
        `${run.cpuMsPerBooking.toFixed(1)} ms of portal CPU a booking)`;
      say(
        `several instances, ${PATIENTS} patients booking concurrently for ${SECONDS} s on ` +
          `${os.cpus().length} cores shared by the client, the instances and PostgreSQL: ` +
          `${line('one instance', one)}; ${line('two instances', two)}`,
      );
      expect(one.booked).toBeGreaterThan(0);
      expect(two.booked).toBeGreaterThan(0);
    }, 60_000);
  },
);
