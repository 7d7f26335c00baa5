#!/usr/bin/env node
// `npm run bench`: the portal's API under load, as a share of a bare Fastify app, in one run.
//
//   npm run bench                                   # SQLite, 10,000 users, 1,000,000 bookings
//   npm run bench -- --pg postgres://postgres@127.0.0.1:5432/postgres   # SQLite and PostgreSQL
//   npm run bench -- --bookings 1000000 --compare 1000 --rounds 3 --duration 5 --connections 50
//   npm run bench -- --profile bare          # one route under `node --cpu-prof`, top functions
//   npm run bench -- --routes book           # only these routes (available, mine, book)
//
// For each engine (SQLite, and PostgreSQL given --pg) and each database size (the stated one,
// then --compare, default 1,000 bookings, to show the figures do not depend on how many
// bookings are stored; --compare 0 skips it):
//   1. a fresh database (SQLite file in a temp folder, or a new PostgreSQL database on --pg that
//      is dropped afterwards) is migrated by the portal's own code, then bulk-loaded directly:
//      users, one live session each, and bookings spread over past and future days at the
//      same density (about half of each day's slots) whatever the size; the 200 patients whose
//      lists are read hold 3 bookings each at any size;
//   2. the built portal (server/dist/main.js, `npm run build` first when stale) starts in
//      production mode on loopback with that database and the product's default LOG_LEVEL
//      (its log goes to a file, as it would to a collector); bearer tokens are signed with the
//      portal's own access-token code and the same AUTH_SECRET.
// Then, for each route (GET /api/available?date=…, GET /api/booking?patientMail=… with a bearer
// token, POST /api/booking with every request a distinct patient and a free slot), --rounds
// times: autocannon drives, for --duration seconds each with --connections connections after a
// short warm-up, the ceiling: a bare Fastify app (no hooks, logger off) in a process of its own
// (bench/bare-server.mjs); then on each portal its own bare JSON route (GET /api/bench/bare,
// served with BENCH_BARE_ROUTE=true, behind every hook: the portal's per-request floor) and the
// route itself. It reads each server's CPU time per request from /proc. A route's share is its
// requests/s over the ceiling's in the same round (docs/decisions/027-bench-ceiling-own-process.md).
// Prints the tables and the targets, and writes them to bench/results.md.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { ensureBuild } from '../scripts/lib/build.mjs';
import { freePort, ROOT, startPortal, tempDir, waitForHttp } from './lib/portal.mjs';

const say = (line = '') => process.stdout.write(`${line}\n`);
const SCRIPT = fileURLToPath(import.meta.url);

// ── Options ──────────────────────────────────────────────────────────────────────────────────
function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  if (index !== -1) return process.argv[index + 1];
  const inline = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  return inline ? inline.slice(name.length + 3) : fallback;
}
const USERS = Number(option('users', 10_000));
const BOOKINGS = Number(option('bookings', 1_000_000));
const COMPARE = Number(option('compare', 1_000));
const DURATION = Number(option('duration', 5));
const CONNECTIONS = Number(option('connections', 50));
const WARMUP = Number(option('warmup', 2));
const PG_URL = option('pg', '');
const LOG_LEVEL = option('log-level', '');
const OUTPUT = path.resolve(ROOT, option('out', 'bench/results.md'));
/** --profile available|mine|book|bare: that route only, with the portal under `node --cpu-prof`. */
const PROFILE = option('profile', '');
/** SQLite always; PostgreSQL beside it given a URL (alone when profiling). */
const ENGINES = PROFILE
  ? [PG_URL ? 'postgres' : 'sqlite']
  : ['sqlite', ...(PG_URL ? ['postgres'] : [])];
const ENGINE_NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * Issue 18's targets: each route's requests/s as a share of the bare app's, its p99 and errors
 * (met on SQLite, PostgreSQL reported beside), the portal's CPU per request on its bare route,
 * and each route's share at a million bookings within 10 % of its share at 1,000.
 */
const TARGETS = {
  share: { available: 0.6, mine: 0.4, book: 0.3 },
  p99: 10,
  floorCpu: 45,
  scaleDrift: 0.1,
};

// ── The portal's own code (from the build) ───────────────────────────────────────────────────
ensureBuild();
const dist = (file) => pathToFileURL(path.join(ROOT, 'server', 'dist', file)).href;
const { prepareDatabase } = await import(dist('db/prepare.js'));
const { accessTokens } = await import(dist('auth/access-token.js'));
const { demoTreatments } = await import(dist('db/demo-data.js'));
const contract = await import(pathToFileURL(path.join(ROOT, 'contract', 'dist', 'index.js')).href);
const { formatMediumDate, todayIn } = contract;

const TIME_ZONE = 'America/New_York';
const treatments = demoTreatments.map((row) => ({ id: row.id, slots: JSON.parse(row.slots) }));
/** Every (treatment, slot) of a day, in a fixed order. */
const daySlots = treatments.flatMap((t) => t.slots.map((slot) => ({ treatment: t.id, slot })));

function addDays(iso, days) {
  const date = new Date(`${iso}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

// ── Seeding ──────────────────────────────────────────────────────────────────────────────────
/** Bookings per seeded day: every other slot, so each day is about half booked. */
const PER_DAY = Math.ceil(daySlots.length / 2);
/**
 * The patients whose own bookings GET /api/booking lists: each holds exactly MEASURED_HOLDS
 * bookings at any size, so that the answer is the same work with 1,000 or 100,000 stored.
 */
const MEASURED_PATIENTS = 200;
const MEASURED_HOLDS = 3;
/**
 * The days the seeded bookings cover: three quarters past and a quarter ahead, but none before
 * 1970, the earliest date the portal's dates know (a million bookings at this density cover
 * 119 years), and the number of days ahead they reach.
 */
function seededDays(bookings, today) {
  const days = Math.ceil(bookings / PER_DAY);
  const sinceEpoch = Math.floor(Date.parse(`${today}T00:00:00Z`) / 86_400_000);
  const past = Math.min(Math.floor(days * 0.75), sinceEpoch - 1);
  return { days, first: addDays(today, -past), ahead: days - past };
}
/** POST /api/booking books days from past the last seeded day, whatever the size. */
const postDaysAhead = (bookings, today) => seededDays(bookings, today).ahead + 30;

async function insertInBatches(db, table, rows, size = 500) {
  for (let start = 0; start < rows.length; start += size) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + size))
      .execute();
  }
}

/**
 * Seeds users (one live session each) and `bookings` bookings. Bookings fill PER_DAY slots a
 * day over consecutive days, three quarters of them past and a quarter ahead, so that a day's
 * load is the same at any size.
 */
async function seed(database, { users, bookings, today }) {
  const { db, engine } = database;
  const stamp = (date) => (engine === 'postgres' ? date : date.toISOString());
  const now = new Date();
  const expires = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  const people = Array.from({ length: users }, (_, i) => ({
    id: randomUUID(),
    sessionId: randomUUID(),
    name: `Bench Patient ${i + 1}`,
    email: `patient${i + 1}@bench.test`,
  }));
  await db.transaction().execute(async (tx) => {
    await insertInBatches(
      tx,
      'user',
      people.map((p) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        emailVerified: engine === 'postgres' ? true : 1,
        image: null,
        createdAt: stamp(now),
        updatedAt: stamp(now),
        role: null,
      })),
    );
    await insertInBatches(
      tx,
      'session',
      people.map((p) => ({
        id: p.sessionId,
        token: randomBytes(24).toString('base64url'),
        expiresAt: stamp(expires),
        createdAt: stamp(now),
        updatedAt: stamp(now),
        ipAddress: null,
        userAgent: null,
        userId: p.id,
      })),
    );
    const { first } = seededDays(bookings, today);
    const rows = [];
    const price = Object.fromEntries(demoTreatments.map((t) => [t.id, t]));
    for (let n = 0; n < bookings; n += 1) {
      const day = Math.floor(n / PER_DAY);
      const { treatment, slot } = daySlots[((n % PER_DAY) * 2 + (day % 2)) % daySlots.length];
      // The first bookings go to the measured patients, the rest to everybody else.
      const measured = MEASURED_PATIENTS * MEASURED_HOLDS;
      const patient =
        n < measured
          ? people[n % MEASURED_PATIENTS]
          : people[MEASURED_PATIENTS + ((n - measured) % (users - MEASURED_PATIENTS))];
      rows.push({
        id: randomUUID(),
        treatment_id: treatment,
        treatment_name: price[treatment].name,
        price_cents: price[treatment].price_cents,
        date: addDays(first, day),
        slot,
        patient_id: patient.id,
        patient_email: patient.email,
        patient_name: patient.name,
        phone: '+1 555 010 0000',
        age: 20 + (n % 60),
        created_at: now.toISOString(),
        paid_at: n % 3 === 0 ? now.toISOString() : null,
        transaction_id: n % 3 === 0 ? `pi_bench_${n}` : null,
      });
      if (rows.length === 2_000) await insertInBatches(tx, 'booking', rows.splice(0));
    }
    await insertInBatches(tx, 'booking', rows);
  });
  if (engine === 'postgres') await sqlAnalyze(db);
  return people;
}

async function sqlAnalyze(db) {
  const { sql } = await import('kysely');
  await sql`analyze`.execute(db);
}

// ── PostgreSQL: a database of the bench's own ────────────────────────────────────────────────
async function createPgDatabase(url) {
  const pg = (await import('pg')).default;
  const name = `portal_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

// ── Load ─────────────────────────────────────────────────────────────────────────────────────
function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * CPU time (user + system, in µs) the process has used so far, from /proc on Linux; null
 * elsewhere. Per request, it says what a route costs the server whatever the load generator
 * beside it manages to send, which moves from run to run on a shared machine.
 */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** Warm-up (discarded), then the measured run of the server `pid`; answers one table row. */
async function measure(name, options, pid) {
  if (WARMUP > 0) await cannon({ ...options, duration: WARMUP });
  const cpuBefore = cpuMicros(pid);
  const result = await cannon({ ...options, duration: DURATION });
  const cpuAfter = cpuMicros(pid);
  const errors = result.errors + result.timeouts + result.non2xx;
  const row = {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    cpu:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : (cpuAfter - cpuBefore) / result.requests.total,
    errors,
  };
  say(
    `  ${name.padEnd(34)} ${fmt(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  ` +
      `server CPU ${row.cpu === null ? '–' : `${Math.round(row.cpu)} µs`}/req  errors ${errors}`,
  );
  return row;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');

function startBare(port) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bench', 'bare-server.mjs'), String(port)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return {
    child,
    ready: waitForHttp(`http://127.0.0.1:${port}/bare`, { child }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * One database size, ready to drive: seeded, its portal started, and each route's requests
 * prepared. `stop` stops the portal and removes the database.
 */
async function setUp(engine, bookings) {
  say(`\n${ENGINE_NAMES[engine]}: ${fmt(USERS)} users, ${fmt(bookings)} bookings`);
  const dataDir = tempDir('bench');
  const pg = engine === 'postgres' ? await createPgDatabase(PG_URL) : null;
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const secret = randomBytes(36).toString('base64url');
  const today = todayIn(TIME_ZONE, new Date());
  let portal;
  try {
    const seededAt = Date.now();
    const people = await seedInChild({
      database: pg
        ? { engine: 'postgres', url: pg.url }
        : { engine: 'sqlite', file: path.join(dataDir, 'portal.db') },
      users: USERS,
      bookings,
      today,
      out: path.join(dataDir, 'people.json'),
    });
    say(`  seeded in ${((Date.now() - seededAt) / 1000).toFixed(1)} s`);

    const logFile = path.join(dataDir, 'portal.log');
    const profileDir = path.join(dataDir, 'profile');
    portal = await startPortal({
      port,
      dataDir,
      logFile,
      nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
      env: {
        AUTH_SECRET: secret,
        CLINIC_TIMEZONE: TIME_ZONE,
        BENCH_BARE_ROUTE: 'true',
        // The bench books day after day from years ahead for patients who pay for none of them.
        BOOKING_HORIZON_DAYS: '36500',
        MAX_UNPAID_BOOKINGS: '10000',
        ...(pg ? { DATABASE_URL: pg.url } : {}),
        ...(LOG_LEVEL ? { LOG_LEVEL } : {}),
      },
    });
    const tokens = accessTokens(secret, publicUrl);
    const bearer = await Promise.all(
      people.map(async (p) => ({
        email: p.email,
        token: (await tokens.issue({ userId: p.id, sessionId: p.sessionId })).token,
      })),
    );

    // A day a week ahead: seeded, about half booked, at any size.
    const availableDate = formatMediumDate(addDays(today, 7));
    const availableUrl = `${publicUrl}/api/available?date=${encodeURIComponent(availableDate)}`;
    const sample = await (await fetch(availableUrl)).json();
    const free = sample.reduce((sum, t) => sum + t.slots.length, 0);
    say(`  /api/available on ${availableDate}: ${free} of ${daySlots.length} slots free`);

    const mine = await fetch(
      `${publicUrl}/api/booking?patientMail=${encodeURIComponent(bearer[0].email)}`,
      { headers: { authorization: `Bearer ${bearer[0].token}` } },
    );
    if (mine.status !== 200) throw new Error(`GET /api/booking answered ${mine.status}`);
    const held = (await mine.json()).length;
    say(`  each measured patient holds ${held} bookings (GET /api/booking?patientMail=…)`);

    let caller = 0;
    let next = 0;
    // Every POST books a free slot for a patient who holds nothing that day: slot n of the
    // plan (days from past the seeded ones on, every slot of each) for patient n.
    const firstPostDay = addDays(today, postDaysAhead(bookings, today));
    const routes = {
      bare: { url: `${publicUrl}/api/bench/bare` },
      available: { url: availableUrl },
      mine: {
        url: publicUrl,
        requests: [
          {
            method: 'GET',
            setupRequest(request) {
              const who = bearer[caller++ % MEASURED_PATIENTS];
              return {
                ...request,
                path: `/api/booking?patientMail=${encodeURIComponent(who.email)}`,
                headers: { ...request.headers, authorization: `Bearer ${who.token}` },
              };
            },
          },
        ],
      },
      book: {
        url: publicUrl,
        requests: [
          {
            method: 'POST',
            setupRequest(request) {
              const n = next++;
              const { treatment, slot } = daySlots[n % daySlots.length];
              const who = bearer[n % bearer.length];
              return {
                ...request,
                path: '/api/booking',
                headers: {
                  ...request.headers,
                  'content-type': 'application/json',
                  authorization: `Bearer ${who.token}`,
                },
                body: JSON.stringify({
                  treatmentId: treatment,
                  date: formatMediumDate(addDays(firstPostDay, Math.floor(n / daySlots.length))),
                  slot,
                  phone: '+1 555 010 1234',
                  age: 30,
                }),
              };
            },
          },
        ],
      },
    };
    const running = portal;
    return {
      engine,
      bookings,
      routes,
      pid: running.child.pid,
      async stop() {
        await running.stop();
        if (next > 0) say(`  ${fmt(bookings)} bookings: POST made ${fmt(next)} bookings`);
        if (PROFILE) printProfile(profileDir);
        await removeDatabase();
      },
    };
  } catch (error) {
    await portal?.stop();
    await removeDatabase();
    throw error;
  }

  async function removeDatabase() {
    await pg?.drop().catch((error) => say(`  could not drop the bench database: ${error.message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The functions with the most self time in the (single) .cpuprofile under `dir`. */
function printProfile(dir) {
  const file = fs.readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) return say('  no CPU profile was written');
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const byPackage = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const where = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    const pkg =
      /node_modules\/((@[^/]+\/)?[^/]+)/.exec(where)?.[1] ??
      (where.startsWith('server/') || where.startsWith('contract/')
        ? where.split('/').slice(0, 3).join('/')
        : where.startsWith('node:')
          ? 'node internals'
          : functionName || '(native)');
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
    total += micros;
  });
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, micros]) => `  ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
  say(`\n  CPU profile ${path.join(dir, file)} (${(total / 1e6).toFixed(1)} s sampled)`);
  say('  by package or folder:');
  for (const line of top(byPackage, 15)) say(line);
  say('  by function (self time):');
  for (const line of top(self, 30)) say(line);
  fs.copyFileSync(path.join(dir, file), path.join(os.tmpdir(), `portal-${PROFILE}.cpuprofile`));
}

/**
 * Seeds in a child process (this same script with --seed-child): the load generator runs in
 * this process, and the seeding's hundreds of megabytes of garbage must not slow it down (it
 * drove a third fewer requests after seeding 100,000 bookings in-process).
 */
function seedInChild(job) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, '--seed-child', JSON.stringify(job)], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`seeding exited with code ${code}`));
      resolve(JSON.parse(fs.readFileSync(job.out, 'utf8')));
    });
  });
}

if (process.argv[2] === '--seed-child') {
  const job = JSON.parse(process.argv[3]);
  const database = await prepareDatabase(job.database);
  try {
    const people = await seed(database, job);
    fs.writeFileSync(job.out, JSON.stringify(people));
  } finally {
    await database.close();
  }
  process.exit(0);
}

// ── Run ──────────────────────────────────────────────────────────────────────────────────────
/**
 * Each route is driven in rounds: the bare app in its own process (the ceiling), then on each
 * portal its bare route and the route, one right after the other, so that what the shared
 * machine is doing at that moment weighs on all of them alike. The tables give the medians of
 * the rounds, and each share of the ceiling is the median of the rounds' own shares.
 */
const ROUNDS = Number(option('rounds', PROFILE ? 1 : 3));
const ROUTE_NAMES = {
  available: 'GET /api/available?date=…',
  mine: 'GET /api/booking?patientMail=… (bearer)',
  book: 'POST /api/booking (bearer)',
};
const CEILING = 'bare Fastify app, own process (ceiling)';
const FLOOR = 'bare route in the portal (its floor)';
// --profile bare profiles the portal's bare route: its per-request floor.
const routeKeys = PROFILE
  ? [PROFILE]
  : option('routes', Object.keys(ROUTE_NAMES).join(',')).split(',');
const unknownRoute = routeKeys.find((route) => !(route in ROUTE_NAMES) && PROFILE !== 'bare');
if (unknownRoute) throw new Error(`no route '${unknownRoute}' (available, mine, book)`);
if (!(USERS > MEASURED_PATIENTS)) {
  throw new Error(
    `--users must be more than the ${MEASURED_PATIENTS} patients GET /api/booking asks for`,
  );
}
const sizes = PROFILE || COMPARE <= 0 ? [BOOKINGS] : [BOOKINGS, COMPARE];

const started = new Date();
const barePort = await freePort();
const bareServer = startBare(barePort);
await bareServer.ready;
const targets = [];
/**
 * Every measured run: its route, round and row, and what it drove: the bare app ('ceiling'),
 * a portal's bare route ('floor') or the route itself ('route'), on which engine and size.
 */
const runs = [];
try {
  for (const engine of ENGINES) {
    for (const bookings of sizes) targets.push(await setUp(engine, bookings));
  }
  for (const route of routeKeys) {
    for (let round = 1; round <= ROUNDS; round += 1) {
      say(`\n${ROUTE_NAMES[route] ?? FLOOR}, round ${round} of ${ROUNDS}`);
      if (!PROFILE) {
        const bareUrl = `http://127.0.0.1:${barePort}/bare`;
        const row = await measure('bare app, own process', { url: bareUrl }, bareServer.child.pid);
        runs.push({ route, round, kind: 'ceiling', row });
      }
      // Every other round in the opposite order: the one driven first is not always the same.
      for (const target of round % 2 ? targets : targets.toReversed()) {
        const { engine, bookings } = target;
        const label = `${ENGINE_NAMES[engine]}, ${fmt(bookings)} bookings`;
        if (!PROFILE) {
          const row = await measure(`${label}, bare route`, target.routes.bare, target.pid);
          runs.push({ route, round, kind: 'floor', engine, bookings, row });
        }
        const row = await measure(label, target.routes[route], target.pid);
        runs.push({ route, round, kind: 'route', engine, bookings, row });
      }
    }
  }
} finally {
  for (const target of targets) await target.stop();
  await bareServer.stop();
}

// ── Report ───────────────────────────────────────────────────────────────────────────────────
if (PROFILE) process.exit(0);

function median(values) {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The medians of a set of runs, and each run's share of the ceiling: the bare app in its own
 * process, driven in the same round for the same route.
 */
function summarise(name, chosen) {
  const ceilingOf = (run) =>
    runs.find((r) => r.kind === 'ceiling' && r.route === run.route && r.round === run.round).row;
  const cpu = chosen.map((run) => run.row.cpu);
  return {
    name,
    rps: median(chosen.map((run) => run.row.rps)),
    share: median(chosen.map((run) => run.row.rps / ceilingOf(run).rps)),
    p50: median(chosen.map((run) => run.row.p50)),
    p99: median(chosen.map((run) => run.row.p99)),
    cpu: cpu.includes(null) ? null : median(cpu),
    errors: chosen.reduce((sum, run) => sum + run.row.errors, 0),
  };
}

const passes = targets.map(({ engine, bookings }) => {
  const on = (run) => run.engine === engine && run.bookings === bookings;
  return {
    engine,
    bookings,
    rows: [
      summarise(
        CEILING,
        runs.filter((run) => run.kind === 'ceiling'),
      ),
      summarise(
        FLOOR,
        runs.filter((run) => run.kind === 'floor' && on(run)),
      ),
      ...routeKeys.map((route) => ({
        route,
        ...summarise(
          ROUTE_NAMES[route],
          runs.filter((run) => run.kind === 'route' && run.route === route && on(run)),
        ),
      })),
    ],
  };
});

/** A route as the targets name it: method and path, without its query or credentials. */
const targetName = (route) => ROUTE_NAMES[route].replace(/\?.*| \(bearer\)/, '');

/** The targets are met on SQLite; PostgreSQL's figures are checked the same way and reported. */
const checks = [];
for (const p of passes) {
  const label = `${ENGINE_NAMES[p.engine]}, ${fmt(p.bookings)} bookings`;
  const check = (what, value, ok) =>
    checks.push({ engine: p.engine, what: `${what} (${label})`, value, ok });
  for (const row of p.rows.filter((r) => r.route)) {
    const wanted = TARGETS.share[row.route];
    const name = targetName(row.route);
    check(`${name} ≥ ${wanted} of the bare app`, row.share.toFixed(2), row.share >= wanted);
    check(`${name} p99 ≤ ${TARGETS.p99} ms`, `${row.p99} ms`, row.p99 <= TARGETS.p99);
  }
  const floor = p.rows.find((row) => row.name === FLOOR);
  check(
    `the portal's CPU per request on its bare route ≤ ${TARGETS.floorCpu} µs`,
    floor.cpu === null ? '–' : `${Math.round(floor.cpu)} µs`,
    floor.cpu !== null && floor.cpu <= TARGETS.floorCpu,
  );
  const errors = p.rows.reduce((sum, row) => sum + row.errors, 0);
  check('0 errors', String(errors), errors === 0);
}
for (const engine of ENGINES) {
  const [big, small] = passes.filter((p) => p.engine === engine);
  if (!small) continue;
  for (const route of routeKeys) {
    // Each route as a share of the ceiling measured in the same round, so that what the
    // machine was doing at the time cancels out.
    const share = (p) => p.rows.find((row) => row.route === route).share;
    const drift = Math.abs(share(big) - share(small)) / share(small);
    checks.push({
      engine,
      what: `${targetName(route)}: ${fmt(big.bookings)} vs ${fmt(small.bookings)} bookings within ${TARGETS.scaleDrift * 100} % (${ENGINE_NAMES[engine]})`,
      value: `${(drift * 100).toFixed(1)} %`,
      ok: drift <= TARGETS.scaleDrift,
    });
  }
}

/** A Markdown table with padded columns (as the repository's formatter writes them). */
function table(header, aligns, rows) {
  const all = [header, ...rows];
  const width = header.map((_, i) => Math.max(3, ...all.map((row) => String(row[i]).length)));
  const cell = (text, i) =>
    aligns[i] === 'right' ? String(text).padStart(width[i]) : String(text).padEnd(width[i]);
  const line = (row) => `| ${row.map(cell).join(' | ')} |`;
  const rule = `| ${width.map((w, i) => (aligns[i] === 'right' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)];
}

const cpus = os.cpus();
const machine = `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'CPU'}, Node ${process.version}, load average ${os
  .loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')} at the end`;
const lines = [];
lines.push('# Benchmark results');
lines.push('');
lines.push(
  `Written by \`npm run bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}\` on ${started.toISOString()}.`,
);
lines.push('');
lines.push(`- Machine: ${machine}`);
lines.push(
  `- Engines: ${ENGINES.map((engine) => (engine === 'sqlite' ? 'SQLite (WAL)' : 'PostgreSQL')).join(' and ')}; ${fmt(USERS)} users with a live session each`,
);
lines.push(
  `- Load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per run after a ${WARMUP} s warm-up, on loopback; the load generator shares the machine with the servers`,
);
lines.push(
  "- Ceiling: a bare Fastify app (one JSON route, no hooks, logger off) in a process of its own; the portal's own bare JSON route (GET /api/bench/bare, BENCH_BARE_ROUTE=true, behind every hook) is the second reference row: the portal's per-request floor",
);
lines.push(
  `- Rounds: ${ROUNDS}; in each, a route is driven on the bare app, then on each portal its bare route and the route, one right after the other; the figures are the medians of the rounds, and a share of the ceiling is the median of each round's own share`,
);
lines.push(
  `- Portal: the production build, LOG_LEVEL ${LOG_LEVEL || 'as shipped (the default)'}, log to a file`,
);
lines.push('');
for (const p of passes) {
  lines.push(`## ${ENGINE_NAMES[p.engine]}, ${fmt(p.bookings)} bookings stored`);
  lines.push('');
  lines.push(
    ...table(
      [
        'route',
        'requests/s',
        'share of the bare app',
        'p50 (ms)',
        'p99 (ms)',
        'server CPU (µs/req)',
        'errors',
      ],
      ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      p.rows.map((row) => [
        row.name,
        fmt(row.rps),
        row.share.toFixed(2),
        row.p50,
        row.p99,
        row.cpu === null ? '–' : Math.round(row.cpu),
        row.errors,
      ]),
    ),
  );
  lines.push('');
}
for (const engine of ENGINES) {
  lines.push(
    engine === 'sqlite' ? '## Targets (SQLite)' : '## The same targets on PostgreSQL (reported)',
  );
  lines.push('');
  lines.push(
    ...table(
      ['target', 'measured', 'met'],
      ['left', 'right', 'left'],
      checks
        .filter((check) => check.engine === engine)
        .map((check) => [check.what, check.value, check.ok ? 'yes' : 'NO']),
    ),
  );
  lines.push('');
}
const report = lines.join('\n');
fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
fs.writeFileSync(OUTPUT, report);
say('');
say(report);
say(`Written to ${path.relative(ROOT, OUTPUT)}`);
process.exitCode = checks.every((check) => check.engine !== 'sqlite' || check.ok) ? 0 : 1;
