import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, ROOT_DIR } from '../config/env.js';
import { createImageStorage } from '../images/storage.js';
import { backupSqlite, defaultBackupFile } from './backup.js';
import { openDatabase } from './database.js';
import { seedDemoDoctors } from './demo-doctors.js';
import { migrateToLatest } from './migrate.js';
import { seedDemoData } from './seed.js';

/**
 * npm run migrate | npm run seed: the same steps the server runs at start, on their own.
 * npm run backup [-- <file>]: an online copy of the SQLite database (see backup.ts).
 */
const [command, target] = process.argv.slice(2);
if (command !== 'migrate' && command !== 'seed' && command !== 'backup') {
  console.error('usage: cli.ts migrate | seed | backup [file]');
  process.exit(2);
}

/** A size for people: '812 B', '296.0 KB', '12.3 MB'. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

async function migrateOrSeed(config: ReturnType<typeof loadConfig>) {
  const database = await openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    console.log(
      applied.length
        ? `applied ${applied.map((m) => m.migrationName).join(', ')}`
        : 'schema is up to date',
    );
    if (command === 'seed') {
      const { inserted } = await seedDemoData(database.db);
      console.log(`seed inserted ${inserted} row(s)`);
      const images = createImageStorage(config.images);
      try {
        const doctors = await seedDemoDoctors(database.db, images);
        console.log(`seed added ${doctors.inserted} demo doctor(s)`);
      } finally {
        images.close();
      }
    }
  } finally {
    await database.close();
  }
}

try {
  // The settings the server itself would read (see main.ts): the environment, then .env.
  const envFile = path.join(ROOT_DIR, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  const config = loadConfig();
  if (command === 'backup') {
    // npm runs workspace scripts in server/; a relative path means one from where npm was run.
    const destination = target
      ? path.resolve(process.env.INIT_CWD ?? process.cwd(), target)
      : defaultBackupFile(config.dataDir);
    const { file, bytes, bookings, ms } = await backupSqlite(config.database, destination);
    const rows = `${bookings} booking${bookings === 1 ? '' : 's'}`;
    console.log(`${file} (${size(bytes)}, ${rows}, copied and checked in ${ms} ms)`);
  } else {
    await migrateOrSeed(config);
  }
} catch (error) {
  console.error(`doctors-portal: ${(error as Error).message}`);
  process.exit(1);
}
