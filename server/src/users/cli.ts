import { loadConfig } from '../config/env.js';
import { prepareDatabase } from '../db/prepare.js';
import { setAdmin } from './repository.js';

/**
 * npm run admin -- grant <email> | revoke <email>
 * The way to make the first administrator: there is no default admin account or password.
 */
const [command, email] = process.argv.slice(2);
if ((command !== 'grant' && command !== 'revoke') || !email) {
  console.error('usage: npm run admin -- grant <email> | revoke <email>');
  process.exit(2);
}

try {
  const database = await prepareDatabase(loadConfig().database);
  try {
    if (!(await setAdmin(database.db, email, command === 'grant'))) {
      console.error(`No account uses ${email}: the person must sign up first.`);
      process.exit(1);
    }
    console.log(
      command === 'grant' ? `${email} is now an admin.` : `${email} is no longer an admin.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(`doctors-portal: ${(error as Error).message}`);
  process.exit(1);
}
