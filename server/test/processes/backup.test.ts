import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT_DIR } from '../../src/config/env.js';
import { BackupError, backupSqlite } from '../../src/db/backup.js';
import { childEnv } from '../child-env.js';
import { createTestDatabase, engine, type TestDatabase } from '../helper.js';
import {
  bookingRequest,
  CLEANING_SLOTS,
  call,
  insertPatients,
  killAllPortals,
  portalEnv,
  startPortal,
} from './portal-process.js';

/**
 * `npm run backup`: an online copy of the SQLite database taken while the portal runs and
 * writes, checked, then restored as the README says. On PostgreSQL it refuses and names pg_dump.
 */

function say(line: string) {
  // biome-ignore lint/suspicious/noConsole: the figures are the point of these tests.
  console.log(line);
}

/** `npm run backup --silent [-- file]` from the repository root, as an operator types it. */
function npmBackup(env: Record<string, string>, file?: string) {
  const started = Date.now();
  const child = spawn('npm', ['run', 'backup', '--silent', ...(file ? ['--', file] : [])], {
    cwd: ROOT_DIR,
    env: childEnv({ HOME: process.env.HOME ?? os.tmpdir(), ...env }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>(
    (resolve) => {
      child.on('exit', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
    },
  );
}

/** stderr without npm's own configuration warnings. */
const messagesOf = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line && !line.startsWith('npm warn'))
    .join('\n');

describe(`npm run backup on ${engine}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await killAllPortals();
    await database?.drop();
  });

  if (engine === 'postgres') {
    it('refuses with one line that points to pg_dump', async () => {
      if (database.config.engine !== 'postgres') throw new Error('a PostgreSQL test database');
      const run = await npmBackup({ DATABASE_URL: database.config.url });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(messagesOf(run.stderr)).toMatch(
        /^doctors-portal: DATABASE_URL names PostgreSQL: .*use pg_dump.*$/,
      );
    }, 30_000);
    return;
  }

  it('copies the database consistently while the portal writes, and the copy restores', async () => {
    if (database.config.engine !== 'sqlite') throw new Error('an SQLite test database');
    const dataDir = path.dirname(database.config.file);
    const env = portalEnv(database, dataDir);
    const portal = await startPortal(env);
    const patients = await insertPatients(database, CLEANING_SLOTS.length);

    // Each patient books their own slot, day after day, until told to stop.
    let acknowledged = 0;
    let stop = false;
    const started = Date.now();
    const stream = Promise.all(
      patients.map(async (patient, slot) => {
        for (let day = 0; !stop; day += 1) {
          const reply = await call(portal.url, 'POST', '/api/booking', {
            token: patient.token,
            body: bookingRequest(day, slot),
          });
          expect(reply.status).toBe(201);
          acknowledged += 1;
        }
      }),
    );
    while (acknowledged < 50) await new Promise((resolve) => setTimeout(resolve, 20));

    const before = acknowledged;
    const backup = await npmBackup({ DATA_DIR: dataDir });
    const after = acknowledged;
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop = true;
    await stream;
    const perSecond = acknowledged / ((Date.now() - started) / 1000);

    expect(messagesOf(backup.stderr)).toBe('');
    expect(backup.code).toBe(0);
    const printed =
      /^(\/\S+\/backups\/portal-[\dT-]+Z\.db) \(([\d.]+ [KM]?B), (\d+) bookings, copied and checked in (\d+) ms\)\n$/.exec(
        backup.stdout,
      );
    expect(printed, backup.stdout).not.toBeNull();
    const [, file = '', size, bookings, copyMs] = printed as RegExpExecArray;
    expect(path.dirname(file)).toBe(path.join(dataDir, 'backups'));

    // The copy stands alone (no -wal beside it), passes the integrity check, and holds every
    // booking acknowledged before the backup started and none that had not been sent when it
    // ended (at most one request per patient was in flight).
    const copy = new SQLite(file, { readonly: true, fileMustExist: true });
    let counts: { bookings: number; users: number; treatments: number };
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      const count = (table: string) =>
        (copy.prepare(`select count(*) as n from "${table}"`).get() as { n: number }).n;
      counts = { bookings: count('booking'), users: count('user'), treatments: count('treatment') };
    } finally {
      copy.close();
    }
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(counts.bookings).toBe(Number(bookings));
    expect(counts.bookings).toBeGreaterThanOrEqual(before);
    expect(counts.bookings).toBeLessThanOrEqual(after + patients.length);
    expect(counts.users).toBe(patients.length);
    expect(counts.treatments).toBe(7);

    // Restore as the README says: stop the portal, copy the backup over portal.db, remove the
    // -wal and -shm files, start it again.
    portal.child.kill('SIGTERM');
    expect((await portal.exit).code).toBe(0);
    fs.copyFileSync(file, database.config.file);
    fs.rmSync(`${database.config.file}-wal`, { force: true });
    fs.rmSync(`${database.config.file}-shm`, { force: true });
    const restored = await startPortal(env);
    const mine = await call(
      restored.url,
      'GET',
      `/api/booking?patientMail=${encodeURIComponent(patients[0]?.email ?? '')}`,
      { token: patients[0]?.token },
    );
    expect(mine.status).toBe(200);
    const handle = new SQLite(database.config.file, { readonly: true });
    const restoredCount = (
      handle.prepare('select count(*) as n from booking').get() as { n: number }
    ).n;
    handle.close();
    expect(restoredCount).toBe(counts.bookings);
    restored.child.kill('SIGTERM');
    expect((await restored.exit).code).toBe(0);

    say(
      `backup (sqlite): copied and checked in ${copyMs} ms (npm run backup: ${backup.ms} ms in all) while the portal ` +
        `booked ${perSecond.toFixed(0)} bookings/s; ${size}; integrity_check ok; ` +
        `${counts.bookings} bookings in the copy (${before} acknowledged before it started, ` +
        `${after} when it ended); restored and served again with ${restoredCount} bookings`,
    );
  }, 180_000);

  it('never overwrites a file and says plainly what is missing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
    try {
      const source = { engine: 'sqlite' as const, file: path.join(dir, 'portal.db') };
      new SQLite(source.file).close();
      const taken = path.join(dir, 'taken.db');
      fs.writeFileSync(taken, 'keep me');
      await expect(backupSqlite(source, taken)).rejects.toThrow(
        `${taken} already exists: name a new file, or move the old one away`,
      );
      expect(fs.readFileSync(taken, 'utf8')).toBe('keep me');
      const missing = { engine: 'sqlite' as const, file: path.join(dir, 'nothing', 'portal.db') };
      await expect(backupSqlite(missing, path.join(dir, 'x.db'))).rejects.toThrow(BackupError);
      await expect(
        backupSqlite({ engine: 'postgres', url: 'postgres://db/portal' }, path.join(dir, 'y.db')),
      ).rejects.toThrow(/use pg_dump/);
      expect(fs.readdirSync(dir).sort()).toEqual(['portal.db', 'taken.db']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
