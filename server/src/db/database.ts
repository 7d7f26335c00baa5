import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config/env.js';
import { StartupError } from '../startup-error.js';
import { statementName } from './compiled-once.js';
import type { Database } from './schema.js';
import { withPlainRows } from './sqlite-rows.js';

export type Engine = Config['database']['engine'];

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** Resolves when the database answers a trivial query, rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when the configured database cannot be opened; its message is one line. */
export class DatabaseUnavailableError extends StartupError {
  override name = 'DatabaseUnavailableError';
}

// PostgreSQL returns bigint (counts, sums) as strings; every such value here fits a JS number.
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

function openSqlite(file: string): Kysely<Database> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  // Every commit reaches the disk before the portal answers: an acknowledged booking survives a
  // power cut or an OS crash too, not only the process's death (NORMAL would lose the last
  // commits then). About 0.3 ms a commit on an SSD; see docs/reliability.md, Crash safety.
  database.pragma('synchronous = FULL');
  // A savepoint's undo record (its statement journal) in memory rather than in a temporary file:
  // every booking runs under one (db/group-commit.ts), and past 64 KB of changed pages SQLite
  // wrote it to a file it opened, wrote and deleted again, about 55 writes a booking
  // (docs/performance.md). Sorts too large for the page cache also stay in memory.
  database.pragma('temp_store = MEMORY');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // lower() as PostgreSQL's and JavaScript's, beyond ASCII: SQLite's own lowers A to Z only, so
  // the schedule's and the audit log's searches (a pattern lowered in JavaScript against
  // lower(name)) missed 'Élodie' however it was typed. No index is built on it.
  database.function('lower', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  return new Kysely<Database>({
    dialect: new SqliteDialect({ database: reusingStatements(database) }),
  });
}

/** A statement that changes the schema: it is never kept, and the kept ones are let go. */
const SCHEMA_CHANGE = /^\s*(alter|create|drop)\s/i;

/** Past this many distinct statements, the cache starts again from empty. */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * The database as Kysely sees it, with each statement prepared once per SQL text and reused:
 * Kysely asks for a new one with every query, and preparing was a tenth of a booking's time
 * (docs/performance.md). Reuse is safe because Kysely runs one query at a time on this
 * connection, and SQLite prepares a statement again by itself when the schema changes.
 */
function reusingStatements(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(text) {
      // Statements read before a change of schema may name columns that changed (sqlite-rows.ts).
      if (SCHEMA_CHANGE.test(text)) {
        statements.clear();
        return database.prepare(text);
      }
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = withPlainRows(database.prepare(text));
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** Connections each instance holds open to PostgreSQL at most. */
export const PG_POOL_SIZE = 10;

function openPostgres(url: string, preparedStatements = true): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: PG_POOL_SIZE,
    connectionTimeoutMillis: 5000,
    types: pgTypes,
  });
  // The server may close an idle connection (a restart, a failover, an administrator). The pool
  // then drops it and opens another when needed; without a listener the event would end the
  // process. Queries in flight fail on their own and are answered by the error handler.
  pool.on('error', () => {});
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: preparedStatements ? preparing(pool) : pool }),
  });
}

/**
 * The pool as Kysely uses it, with each statement compiled once (db/compiled-once.ts) sent as a
 * named statement: PostgreSQL parses and plans it once per connection instead of with every call
 * (decision 029). Every other query goes as Kysely sends it.
 */
function preparing(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      const query = (text: string, values: readonly unknown[]) => {
        const name = statementName(text);
        // Kysely hands each query an array of its own; pg only reads it.
        return client.query({ name, text, values: values as unknown[] });
      };
      // Kysely asks for cursors only to stream rows, with a cursor class the dialect is not given.
      return {
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}

function describe(config: Config['database']): string {
  if (config.engine === 'sqlite') return `SQLite at ${config.file}`;
  const url = new URL(config.url);
  url.password = url.password ? '***' : '';
  return `PostgreSQL at ${url.toString()}`;
}

/** Opens the configured database and checks that it answers. */
export async function openDatabase(config: Config['database']): Promise<DatabaseHandle> {
  let db: Kysely<Database>;
  try {
    db =
      config.engine === 'sqlite'
        ? openSqlite(config.file)
        : openPostgres(config.url, config.preparedStatements);
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open ${describe(config)}: ${(error as Error).message}`,
    );
  }
  const ping = async () => {
    await sql`select 1`.execute(db);
  };
  try {
    await ping();
  } catch (error) {
    await db.destroy().catch(() => {});
    const reason = (error as Error).message || (error as { code?: string }).code || 'no answer';
    throw new DatabaseUnavailableError(`Cannot reach ${describe(config)}: ${reason}`);
  }
  return { db, engine: config.engine, ping, close: () => db.destroy() };
}
