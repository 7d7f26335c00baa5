import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config/env.js';
import type { DatabaseHandle } from '../src/db/database.js';
import { prepareDatabase } from '../src/db/prepare.js';
import type { Database } from '../src/db/schema.js';

/** Which engine this run of the server suite targets (set per Vitest project). */
export const engine = (process.env.TEST_DB_ENGINE ?? 'sqlite') as 'sqlite' | 'postgres';

export interface TestDatabase {
  config: Config['database'];
  drop(): Promise<void>;
}

/** A fresh, empty database of the suite's engine; `drop` removes every trace of it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (engine === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
    return {
      config: { engine: 'sqlite', file: path.join(dir, 'portal.db') },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error('TEST_PG_URL must be set for the PostgreSQL suite');
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { engine: 'postgres', url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * For the tests of a file: a fresh database of the suite's engine, prepared as the portal's
 * (migrated, the demo clinic's data in), opened before them and dropped after. Read `db` (or the
 * whole `handle`) inside a test or hook.
 */
export function useTestDatabase(): {
  readonly handle: DatabaseHandle;
  readonly db: Kysely<Database>;
} {
  let testDatabase: TestDatabase | undefined;
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await prepareDatabase(testDatabase.config);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });
  return {
    get handle() {
      if (!database) throw new Error('the test database is opened before the tests');
      return database;
    },
    get db() {
      return this.handle.db;
    },
  };
}

export interface LogRecord {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  db: DatabaseHandle['db'];
  config: Config;
  /** Everything the app logged at warn level or above (or at `logLevel`, when given). */
  logs: LogRecord[];
  close(): Promise<void>;
}

/**
 * The portal's app on a fresh migrated and seeded database, for `inject` tests.
 * `env` overrides configuration variables as the environment would; `logLevel` keeps more of
 * the log than warnings and errors (`info` keeps the access log).
 */
export async function buildTestApp(
  options: { env?: Record<string, string>; webRoot?: string; logLevel?: string } = {},
): Promise<TestApp> {
  const testDatabase = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-data-'));
  const config = {
    // The tests book dates up to a year and a half after the clinic's test clock (setup.ts).
    ...loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      BOOKING_HORIZON_DAYS: '730',
      ...options.env,
    }),
    database: testDatabase.config,
  };
  const database = await prepareDatabase(config.database);
  const logs: LogRecord[] = [];
  const stream = { write: (line: string) => logs.push(JSON.parse(line) as LogRecord) };
  const app = await buildApp({
    config,
    database,
    webRoot: options.webRoot ?? path.join(dataDir, 'no-web-build'),
    logger: { level: options.logLevel ?? 'warn', stream },
  });
  return {
    app,
    database,
    db: database.db,
    config,
    logs,
    close: async () => {
      await app.close();
      await database.close();
      await testDatabase.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
