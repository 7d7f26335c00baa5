import { loadConfig } from '../config/env.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { seedDemoData } from './seed.js';

/** npm run migrate | npm run seed: the same steps the server runs at start, on their own. */
const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: cli.ts migrate|seed');
  process.exit(2);
}

try {
  const config = loadConfig();
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
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`doctors-portal: ${(error as Error).message}`);
  process.exit(1);
}
