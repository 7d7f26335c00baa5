import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMEOUTS, timeoutOptions } from '../../src/http/timeouts.js';
import { createTestDatabase, engine, type TestDatabase } from '../helper.js';
import { killAllPortals, type PortalProcess, portalEnv, startPortal } from './portal-process.js';

/**
 * Slow and idle clients cannot starve the portal: thousands of connections that send half a
 * request and then nothing are closed by the server once the header timeout has passed, and
 * while they are held a new client is answered at once.
 *
 * The portal runs as a real process with HEADERS_TIMEOUT=5 (seconds) so that the test takes
 * seconds; production waits 15 s (server/src/http/timeouts.ts).
 */

const SOCKETS = 3000;
const HEADERS_TIMEOUT_S = 5;
/** Node checks header deadlines on a timer: at most this much after the deadline itself. */
const CHECK_INTERVAL_MS =
  timeoutOptions({ ...TIMEOUTS, headers: HEADERS_TIMEOUT_S * 1000 }).http
    .connectionsCheckingInterval ?? 30_000;
/** Room for closing thousands of sockets in a few turns of the event loop on a busy machine. */
const SLACK_MS = 1500;
const HALF_A_REQUEST = 'GET /api/health HTTP/1.1\r\nHost: portal.localhost\r\n';

function say(line: string) {
  // biome-ignore lint/suspicious/noConsole: the figures are the point of this test.
  console.log(line);
}

/** The open-files limit this test and the portal it starts run under (`ulimit -n`). */
function openFilesLimit(): number {
  const limit = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
  return limit === 'unlimited' ? Number.POSITIVE_INFINITY : Number(limit);
}

/**
 * A process of its own that calls GET /api/health on a new connection every 50 ms and prints
 * each answer's status and time, one JSON line each. Apart from this test's process, whose
 * event loop is busy with thousands of sockets of its own, so that the times are the portal's.
 */
const SAMPLER = `
const http = require('node:http');
const port = Number(process.argv[1]);
function once() {
  const started = performance.now();
  const request = http.get({ host: '127.0.0.1', port, path: '/api/health', agent: false, timeout: 5000 }, (response) => {
    response.resume();
    response.on('end', () => {
      console.log(JSON.stringify({ ms: performance.now() - started, status: response.statusCode }));
      setTimeout(once, 50);
    });
  });
  request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
  request.on('error', (error) => {
    console.log(JSON.stringify({ error: String(error) }));
    setTimeout(once, 50);
  });
}
once();
`;

function startSampler(port: number) {
  const child = spawn(process.execPath, ['-e', SAMPLER, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const samples: number[] = [];
  const failures: string[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const sample = JSON.parse(line) as { ms?: number; status?: number; error?: string };
      if (sample.error) failures.push(sample.error);
      else if (sample.status !== 200) failures.push(`status ${sample.status}`);
      else samples.push(sample.ms ?? Number.NaN);
    }
  });
  return {
    samples,
    failures,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** GET /api/health on a connection of its own: the time until the whole answer arrived. */
function healthOnFreshConnection(port: number): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/api/health', agent: false, timeout: 5000 },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ ms: performance.now() - started, status: response.statusCode ?? 0 }),
        );
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 5 s')));
    request.on('error', reject);
  });
}

interface HalfRequest {
  socket: net.Socket;
  sentAt: number;
  closedAt?: number;
  answer: string;
}

/** A connection that sends the first lines of a request, then nothing. */
function halfRequest(port: number): Promise<HalfRequest> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const held: HalfRequest = { socket, sentAt: 0, answer: '' };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      held.answer += chunk;
    });
    // A reset after the server's answer is a close like any other.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      held.closedAt = performance.now();
    });
    socket.once('connect', () => {
      socket.write(HALF_A_REQUEST);
      held.sentAt = performance.now();
      resolve(held);
    });
    socket.once('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

describe(`slow and idle clients on ${engine}`, () => {
  let database: TestDatabase;
  let dataDir: string;
  let portal: PortalProcess;
  const held: HalfRequest[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-slow-'));
    portal = await startPortal({
      ...portalEnv(database, dataDir),
      HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
    });
  }, 120_000);
  afterAll(async () => {
    for (const request of held) request.socket.destroy();
    await killAllPortals();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes thousands of half-sent requests after the header timeout, answering new clients within 1 s meanwhile', async () => {
    // This process and the portal each hold one descriptor per connection, and need some more.
    const limit = openFilesLimit();
    expect(limit, `ulimit -n is ${limit}: too low to hold ${SOCKETS} connections`).toBeGreaterThan(
      SOCKETS + 500,
    );

    // This process's own event loop delay, from here on: a stall of the whole machine (other
    // test files, other processes) shows in it as well as in the portal's answers.
    const observerLag = monitorEventLoopDelay({ resolution: 10 });
    observerLag.enable();
    const sampler = startSampler(portal.port);
    const { samples, failures } = sampler;
    while (samples.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));

    // Opened in batches, as fast as the machine accepts them.
    const openingStarted = performance.now();
    for (let start = 0; start < SOCKETS; start += 250) {
      const batch = Array.from({ length: Math.min(250, SOCKETS - start) }, () =>
        halfRequest(portal.port),
      );
      held.push(...(await Promise.all(batch)));
    }
    const allOpenAt = performance.now();
    const openAtOnce = held.filter((request) => request.closedAt === undefined).length;
    const samplesBefore = samples.length;

    // Every connection should be closed by the header timeout (and Node's check after it).
    const lastSent = Math.max(...held.map((request) => request.sentAt));
    // This process sees a close only when its own event loop gets to it: on a machine busy with
    // other work it falls behind, by as much as its longest delay while it waits (measured).
    const deadline = lastSent + HEADERS_TIMEOUT_S * 1000 + CHECK_INTERVAL_MS + SLACK_MS;
    const lagged = () => observerLag.max / 1e6;
    // And the portal closes them late by as much as it is stalled itself: its slowest answer to
    // the health checks meanwhile (in CI, 1 s beside the other suites on 2 cores).
    const stalled = () => Math.max(0, ...samples.filter(Number.isFinite));
    while (
      performance.now() < deadline + lagged() + stalled() &&
      held.some((request) => request.closedAt === undefined)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    observerLag.disable();
    const lagMs = lagged();
    const stallMs = stalled();
    await sampler.stop();

    const closed = held.filter((request) => request.closedAt !== undefined);
    const heldFor = closed
      .map((request) => (request.closedAt ?? 0) - request.sentAt)
      .sort((a, b) => a - b);
    const sorted = [...samples].sort((a, b) => a - b);
    const timedOut = closed.filter((request) => request.answer.startsWith('HTTP/1.1 408')).length;
    say(
      [
        `slow clients (${engine}): ${SOCKETS} half-sent requests opened in ${Math.round(allOpenAt - openingStarted)} ms, ${openAtOnce} open at once`,
        `  /api/health on fresh connections meanwhile: ${samples.length} samples (${samples.length - samplesBefore} after all were open), p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${percentile(sorted, 100).toFixed(1)} ms (this process's own longest stall: ${Math.round(lagMs)} ms)`,
        closed.length === 0
          ? `  closed by the portal within ${Math.round(deadline - lastSent)} ms: none of ${SOCKETS}`
          : `  closed by the portal: ${closed.length} of ${SOCKETS} (${timedOut} answered 408 first), each after ${Math.round(heldFor[0] ?? 0)}–${Math.round(heldFor.at(-1) ?? 0)} ms (header timeout ${HEADERS_TIMEOUT_S * 1000} ms, checked every ${CHECK_INTERVAL_MS} ms); the last ${Math.round(Math.max(...closed.map((request) => request.closedAt ?? 0)) - lastSent)} ms after the last was sent`,
      ].join('\n'),
    );

    expect(openAtOnce, 'every connection was held at the same time').toBe(SOCKETS);
    expect(failures).toEqual([]);
    expect(samples.length - samplesBefore).toBeGreaterThanOrEqual(5);
    // Within 1 s, but for a stall of the whole machine that this process saw too (measured).
    // Starvation would slow every probe; on CI's 2 shared cores one in a hundred has taken
    // 2.7 s while this process lagged 0.6 s, so one in twenty may be late, none unanswered.
    const late = samples.filter((ms) => ms >= 1000 + lagMs);
    expect(late.length, `probes slower than 1 s: ${late.join(', ')} ms`).toBeLessThanOrEqual(
      Math.floor(samples.length / 20),
    );
    expect(closed.length, 'connections the portal closed').toBe(SOCKETS);
    expect(heldFor[0]).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_S * 1000 - 50);
    expect(
      heldFor.at(-1),
      `the last close, seen by this process, whose event loop lagged by up to ${Math.round(lagMs)} ms, from a portal that took up to ${Math.round(stallMs)} ms to answer`,
    ).toBeLessThanOrEqual(
      HEADERS_TIMEOUT_S * 1000 + CHECK_INTERVAL_MS + SLACK_MS + lagMs + stallMs,
    );
    // And the portal goes on answering.
    expect((await healthOnFreshConnection(portal.port)).status).toBe(200);
  }, 60_000);
});
