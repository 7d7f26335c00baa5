import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { formatMediumDate, type IsoDate, todayIn } from '@doctors-portal/contract';
import { accessTokens } from '../../src/auth/access-token.js';
import { ROOT_DIR } from '../../src/config/env.js';
import { openDatabase } from '../../src/db/database.js';
import { demoTreatments } from '../../src/db/demo-data.js';
import { markVerified, type SeededPatient, seedPatients } from '../accounts.js';
import { childEnv } from '../child-env.js';
import type { TestDatabase } from '../helper.js';

/**
 * The portal as a real process, started from its sources (no build needed), and an HTTP client
 * that talks to it as browsers behind a proxy would.
 *
 * Node runs main.ts itself with tsx's loader (`node --import tsx`), one process as in production
 * (`node server/dist/main.js`). Not the `tsx` command: that runs the script in a child process
 * and, when the child does not acknowledge a relayed SIGTERM within 30 ms (a busy event loop,
 * such as password hashing under load), kills it with SIGKILL and exits 143, which would defeat
 * the graceful shutdown these tests exercise.
 */

const MAIN = path.join(ROOT_DIR, 'server', 'src', 'main.ts');

/**
 * The address patients use. Every process of a test gets the same one, as instances behind one
 * load balancer do: access tokens name it as their issuer, and the auth library checks Origin
 * against it.
 */
export const PUBLIC_URL = 'http://portal.localhost';

/** One secret for every process of a run, as several instances must share AUTH_SECRET. */
export const AUTH_SECRET = randomBytes(32).toString('base64url');

export interface PortalProcess {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has ended. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

const running = new Set<PortalProcess>();

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The environment of a portal process on the given test database. On SQLite the database file is
 * DATA_DIR/portal.db, so DATA_DIR is the test database's folder; on PostgreSQL each process gets
 * the folder it is given, as separate machines would.
 */
export function portalEnv(database: TestDatabase, dataDir: string): Record<string, string> {
  if (database.config.engine === 'sqlite' && path.basename(database.config.file) !== 'portal.db') {
    throw new Error('the SQLite test database must be a DATA_DIR/portal.db file');
  }
  return {
    DATA_DIR: database.config.engine === 'sqlite' ? path.dirname(database.config.file) : dataDir,
    PUBLIC_URL,
    AUTH_SECRET,
    TRUST_PROXY: 'true',
    // These tests book day after day, up to years ahead, for few patients who pay for none.
    BOOKING_HORIZON_DAYS: '36500',
    MAX_UNPAID_BOOKINGS: '10000',
    ...(database.config.engine === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
  };
}

/** Starts the portal and resolves once it answers /api/health; rejects with its stderr if not. */
export async function startPortal(env: Record<string, string>): Promise<PortalProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', MAIN], {
    cwd: ROOT_DIR,
    env: childEnv({
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const portal: PortalProcess = {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exit: new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        running.delete(portal);
        resolve({ code, signal, at: Date.now() });
      });
    }),
  };
  running.add(portal);
  let exited = false;
  void portal.exit.then(() => {
    exited = true;
  });
  // tsx compiles the server as it starts: 4 s alone on Node 20 and 6 s on Node 22, but past 45 s
  // once in CI, beside the end-to-end suite and the other Node lines on 2 cores.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !exited) {
    const health = await fetch(`${portal.url}/api/health`).catch(() => undefined);
    if (health?.ok) return portal;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the portal did not start on port ${port}:\n${stderr || stdout.slice(-2000)}`);
}

/** Ends every portal process a test left running (SIGKILL: they hold nothing worth keeping). */
export async function killAllPortals(): Promise<void> {
  const left = [...running];
  for (const portal of left) portal.child.kill('SIGKILL');
  await Promise.all(left.map((portal) => portal.exit));
}

/** The complete log lines the portal wrote as JSON (pino), parsed; a line still arriving waits. */
export function logRecords(text: string): Array<Record<string, unknown>> {
  const lines = text.split('\n');
  lines.pop();
  return lines.flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

// ── Clients ──────────────────────────────────────────────────────────────────────────────────

/**
 * Client addresses for X-Forwarded-For (the portal runs with TRUST_PROXY=true): each call gets
 * its own, from a range drawn at random per run, so rate-limit counters of earlier runs kept in
 * a shared Redis never apply. `prefix` is what every address of this run starts with.
 */
export function clientAddresses() {
  const prefix = `100.${randomInt(64, 128)}.${randomInt(0, 256)}.`;
  let next = 0;
  return {
    prefix,
    next: () => {
      next += 1;
      if (next > 250) throw new Error('more than 250 client addresses in one run');
      return `${prefix}${next}`;
    },
  };
}

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

/** One call to the API, as the web app makes it behind a proxy. Rejects when no answer came. */
export async function call(
  base: string,
  method: string,
  url: string,
  options: { body?: unknown; token?: string; cookie?: string; ip?: string } = {},
): Promise<Reply> {
  const streamed = options.body instanceof ReadableStream;
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      origin: PUBLIC_URL,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
    },
    body: streamed ? (options.body as ReadableStream) : JSON.stringify(options.body),
    ...(streamed ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body, headers: response.headers };
}

/**
 * A JSON body sent in two parts: the first at once, the rest when `finish()` is called. A
 * request with such a body is in flight, for certain, until then.
 */
export function heldBody(value: unknown): { stream: ReadableStream<Uint8Array>; finish(): void } {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const half = Math.floor(bytes.length / 2);
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(control) {
      controller = control;
      control.enqueue(bytes.slice(0, half));
    },
  });
  return {
    stream,
    finish() {
      controller?.enqueue(bytes.slice(half));
      controller?.close();
    },
  };
}

/** Someone who can call the API: an address and an access token. */
export interface Patient {
  email: string;
  token: string;
}

/** A patient who signed up through the API: also a password and a session cookie. */
export interface Account extends Patient {
  password: string;
  cookie: string;
}

function cookieOf(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(';', 1)[0])
    .join('; ');
}

/** Signs in; the session cookie when the password was right. */
export async function signIn(base: string, email: string, password: string, ip: string) {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { origin: PUBLIC_URL, 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password }),
  });
  await response.arrayBuffer();
  return { status: response.status, cookie: cookieOf(response.headers) };
}

/** The API access token for a session cookie (PUT /api/user/{email}), as the web app gets it. */
export async function accessToken(base: string, email: string, cookie: string): Promise<Reply> {
  return call(base, 'PUT', `/api/user/${encodeURIComponent(email)}`, {
    cookie,
    body: { email },
  });
}

/**
 * Patients signed up through the API (each from an address of its own), with a token each, their
 * addresses then marked verified in `database` (as following the mail's link would).
 */
export async function signUpPatients(
  base: string,
  database: TestDatabase,
  count: number,
  nextIp: () => string,
): Promise<Account[]> {
  const run = randomBytes(4).toString('hex');
  const signUp = async (index: number): Promise<Account> => {
    const email = `patient-${run}-${index}@mail.com`;
    const password = `plaque-free-smile-${run}`;
    const response = await fetch(`${base}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: {
        origin: PUBLIC_URL,
        'content-type': 'application/json',
        'x-forwarded-for': nextIp(),
      },
      body: JSON.stringify({ name: `Patient ${index + 1}`, email, password }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`sign-up failed (${response.status}): ${text}`);
    const cookie = cookieOf(response.headers);
    const token = await accessToken(base, email, cookie);
    if (token.status !== 200) throw new Error(`no access token: ${JSON.stringify(token.body)}`);
    return { email, password, cookie, token: (token.body as { token: string }).token };
  };
  // Password hashing runs on libuv's thread pool: a few sign-ups at a time go faster.
  const accounts: Account[] = [];
  for (let start = 0; start < count; start += 4) {
    const batch = Array.from({ length: Math.min(4, count - start) }, (_, i) => start + i);
    accounts.push(...(await Promise.all(batch.map(signUp))));
  }
  const handle = await openDatabase(database.config);
  try {
    for (const account of accounts) await markVerified(handle.db, account.email);
  } finally {
    await handle.close();
  }
  return accounts;
}

/**
 * Many patients at once, written straight into the auth tables with a live session each and an
 * access token minted with the run's AUTH_SECRET, as the portal would mint it: for measuring
 * bookings, not password hashing.
 */
export async function insertPatients(database: TestDatabase, count: number): Promise<Patient[]> {
  const tokens = accessTokens(AUTH_SECRET, PUBLIC_URL);
  const handle = await openDatabase(database.config);
  let people: SeededPatient[];
  try {
    people = await seedPatients(handle.db, handle.engine, count);
  } finally {
    await handle.close();
  }
  return Promise.all(
    people.map(async (person) => ({
      email: person.email,
      token: (await tokens.issue(person)).token,
    })),
  );
}

// ── Bookings ─────────────────────────────────────────────────────────────────────────────────

/** The slots of the demo clinic's 'teeth-cleaning' treatment, in order. */
export const CLEANING_SLOTS: string[] = JSON.parse(
  demoTreatments.find((treatment) => treatment.id === 'teeth-cleaning')?.slots ?? '[]',
);

/** The clinic's date `days` days after tomorrow, as an ISO date: never in the past. */
export function futureIsoDate(days: number): IsoDate {
  const today = todayIn('America/New_York');
  const date = new Date(`${today}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 2 + days);
  return date.toISOString().slice(0, 10) as IsoDate;
}

/** The booking modal's request for a cleaning in slot `slot` on `futureIsoDate(days)`. */
export function bookingRequest(days: number, slot: number) {
  return {
    treatmentId: 'teeth-cleaning',
    date: formatMediumDate(futureIsoDate(days)),
    slot: CLEANING_SLOTS[slot % CLEANING_SLOTS.length],
    phone: '+1 555 010 2030',
    age: 34,
  };
}
