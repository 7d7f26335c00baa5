import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../config/env.js';

/** Thrown when a backup cannot be taken; its message is one line that says what to do. */
export class BackupError extends Error {
  override name = 'BackupError';
}

export interface BackupResult {
  /** The finished copy: a single self-contained SQLite file (rollback journal, no -wal). */
  file: string;
  bytes: number;
  /** Rows in the `booking` table of the copy. */
  bookings: number;
  /** How long the copy and its check took. */
  ms: number;
}

/** 'portal-2025-03-04T10-20-30-123Z.db': sorts by time, and valid on every file system. */
export function backupFileName(now: Date = new Date()): string {
  return `portal-${now.toISOString().replace(/[:.]/g, '-')}.db`;
}

/** Where `npm run backup` writes when no destination is given: DATA_DIR/backups/portal-<time>.db. */
export function defaultBackupFile(dataDir: string, now: Date = new Date()): string {
  return path.join(dataDir, 'backups', backupFileName(now));
}

/**
 * A consistent copy of the portal's SQLite database, taken while the portal runs.
 *
 * SQLite's online backup API copies the pages as one read transaction sees them; in WAL mode that
 * reader does not block the portal's writers, and the portal's writes never block it. The whole
 * database is copied in one step so that a write between steps cannot restart the copy. The copy
 * is written beside its destination under a temporary name, switched to a rollback journal (so the
 * file stands alone), checked with `integrity_check`, and only then renamed into place: a
 * destination that exists is always a whole, checked backup.
 */
export async function backupSqlite(
  database: Config['database'],
  destination: string,
): Promise<BackupResult> {
  if (database.engine !== 'sqlite') {
    throw new BackupError(
      'DATABASE_URL names PostgreSQL: npm run backup copies the SQLite database only; use pg_dump (see README, Backups)',
    );
  }
  if (!fs.existsSync(database.file)) {
    throw new BackupError(
      `There is no database at ${database.file} to back up: is DATA_DIR right? (the portal creates it on its first start)`,
    );
  }
  const file = path.resolve(destination);
  if (file === path.resolve(database.file)) {
    throw new BackupError(`The backup cannot replace the database itself (${file})`);
  }
  if (fs.existsSync(file)) {
    throw new BackupError(`${file} already exists: name a new file, or move the old one away`);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });

  const started = Date.now();
  const source = new SQLite(database.file, { fileMustExist: true });
  try {
    // The portal's own setting: wait for a moment's lock rather than fail at once.
    source.pragma('busy_timeout = 5000');
    await source.backup(partial, { progress: () => 0x7fffffff });
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`Backup of ${database.file} failed: ${(error as Error).message}`);
  } finally {
    source.close();
  }

  let bookings: number;
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The copy failed its integrity check: ${check}`);
    bookings = (copy.prepare('select count(*) as n from booking').get() as { n: number }).n;
  } catch (error) {
    copy.close();
    fs.rmSync(partial, { force: true });
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The copy cannot be read back: ${(error as Error).message}`);
  }
  copy.close();
  fs.renameSync(partial, file);
  return { file, bytes: fs.statSync(file).size, bookings, ms: Date.now() - started };
}
