import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../../db/database.js';
import { groupCommit, type Transact } from '../../db/group-commit.js';
import type { Database } from '../../db/schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    database: DatabaseHandle;
    db: Kysely<Database>;
    /** Transactions for the busiest writes: on SQLite, those arriving together share a commit. */
    transact: Transact;
  }
}

/**
 * The open, migrated database the app works on. It is the caller's: opened before the app is
 * built and closed after it (main.ts, test/helper.ts).
 */
export const databasePlugin = fp(
  async (app: FastifyInstance, options: { database: DatabaseHandle }) => {
    const { database } = options;
    app.decorate('database', database);
    app.decorate('db', database.db);
    app.decorate('transact', groupCommit(database));
  },
  { name: 'database' },
);
