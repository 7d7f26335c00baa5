// Shared by `npm run bench` and `npm run lighthouse`: start the built portal
// (server/dist/main.js) on a free loopback port with its own throw-away data directory, the way
// `npm start` runs it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A new empty directory in the system's temp folder. */
export function tempDir(label) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `doctors-portal-${label}-`));
}

/** Waits until `url` answers 200, or fails after `timeoutMs`. */
export async function waitForHttp(url, { timeoutMs = 60_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  child?.once('exit', (code) => {
    exited = code;
  });
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`the server exited (code ${exited}) before answering`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/**
 * Starts the built portal in production mode on 127.0.0.1:`port` with `env` on top of a clean
 * environment: DATA_DIR and DATABASE_URL always come from here, never from the shell.
 * Its log (stdout) goes to `logFile` when given. Resolves once /api/health answers; `stop()` ends it with SIGTERM, as a supervisor would.
 */
export async function startPortal({
  port,
  dataDir,
  env = {},
  nodeArgs = [],
  quiet = true,
  logFile,
}) {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(ROOT, 'server', 'dist', 'main.js')],
    {
      // main.js also reads ROOT/.env when there is one; it only fills in variables not set here.
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        ...env,
      },
      stdio: ['ignore', logFile ? fs.openSync(logFile, 'a') : quiet ? 'ignore' : 'inherit', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    if (!quiet) process.stderr.write(chunk);
  });
  try {
    await waitForHttp(`${url}/api/health`, { child });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${error.message}${stderr ? `\n${stderr.trim()}` : ''}`);
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
