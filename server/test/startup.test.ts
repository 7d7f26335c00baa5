import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../src/config/env.js';
import { childEnv } from './child-env.js';
import { createTestDatabase, engine, type TestDatabase } from './helper.js';

const TSX = path.join(ROOT_DIR, 'node_modules', '.bin', 'tsx');
const MAIN = path.join(ROOT_DIR, 'server', 'src', 'main.ts');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; ms: number }>;
}

function startServer(env: Record<string, string>): Run {
  const started = Date.now();
  const child = spawn(TSX, ['--conditions=source', MAIN], {
    cwd: ROOT_DIR,
    env: childEnv({ NODE_ENV: 'production', LOG_LEVEL: 'info', ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = new Promise<{ code: number | null; ms: number }>((resolve) => {
    child.on('exit', (code) => resolve({ code, ms: Date.now() - started }));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exit };
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * How long this machine, as loaded as it is now, takes to start a process that loads the server's
 * modules as main.ts does and exits: what every start below pays before its own code runs.
 */
async function moduleLoadMs(): Promise<number> {
  const started = Date.now();
  const child = spawn(
    TSX,
    [
      '--conditions=source',
      '-e',
      ['app', 'config/env', 'db/prepare']
        .map((module) => `import('./server/src/${module}.ts')`)
        .join(';'),
    ],
    { cwd: ROOT_DIR, env: childEnv(), stdio: 'ignore' },
  );
  const code = await new Promise((resolve) => child.on('exit', resolve));
  expect(code).toBe(0);
  return Date.now() - started;
}

describe('starting the server', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-start-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    [
      { DATABASE_URL: 'postgres://127.0.0.1:1/x' },
      /^doctors-portal: cannot start: Cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/x: .+\n$/,
    ],
    [
      { PORT: 'abc' },
      /^doctors-portal: cannot start: PORT must be a whole number from 1 to 65535 \(got "abc"\)\n$/,
    ],
  ])(
    'with %o exits non-zero within 10 s, saying why in one line',
    async (env, message) => {
      // The 10 s are the server's own: on a machine busy with other work, loading its code alone
      // (tsx compiling it) took up to 16 s, so that time is measured just before and left out.
      const loading = await moduleLoadMs();
      const run = startServer({ DATA_DIR: dataDir, ...env });
      const { code, ms } = await run.exit;
      expect(code).not.toBe(0);
      expect(ms - loading, `${ms} ms, of which loading the code took ${loading} ms`).toBeLessThan(
        10_000,
      );
      expect(run.stderr()).toMatch(message);
    },
    60_000,
  );

  describe(`on ${engine}`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(() => database.drop());

    it('serves, then finishes cleanly on SIGTERM', async () => {
      const port = await freePort();
      const run = startServer({
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        ...(database.config.engine === 'postgres' ? { DATABASE_URL: database.config.url } : {}),
      });
      // Until it answers, or stops: how long it takes to start depends on what else the machine
      // is doing (more than 10 s at times, with other suites running beside this one).
      let health: Response | undefined;
      let exited = false;
      void run.exit.then(() => {
        exited = true;
      });
      while (!health && !exited) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health?.status).toBe(200);
      run.child.kill('SIGTERM');
      const { code } = await run.exit;
      expect(code).toBe(0);
      expect(run.stdout()).toContain('shutting down');
      expect(run.stderr()).toBe('');
    }, 60_000);
  });
});
