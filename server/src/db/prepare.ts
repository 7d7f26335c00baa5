import type { Config } from '../config/env.js';
import { type DatabaseHandle, openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { seedDemoData } from './seed.js';

/** Opens the database, brings its schema up to date and adds the demo clinic data it lacks. */
export async function prepareDatabase(config: Config['database']): Promise<DatabaseHandle> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    await seedDemoData(database.db);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
