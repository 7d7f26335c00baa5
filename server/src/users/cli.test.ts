import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/accounts.js';
import { childEnv } from '../../test/child-env.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { ROOT_DIR } from '../config/env.js';

const run = promisify(execFile);
const TSX = path.join(ROOT_DIR, 'node_modules', '.bin', 'tsx');

describe(`npm run admin (${engine})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const admin = (...args: string[]) => {
    const database = t.config.database;
    const env = childEnv(
      database.engine === 'postgres'
        ? { DATABASE_URL: database.url }
        : { DATA_DIR: path.dirname(database.file) },
    );
    return run(TSX, ['--conditions=source', 'server/src/users/cli.ts', ...args], {
      cwd: ROOT_DIR,
      env,
    });
  };
  const roleOf = async (email: string) =>
    (
      await t.db
        .selectFrom('user')
        .select('role')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).role;

  it('grants and revokes the admin role of an existing account', async () => {
    const { email } = await signUp(t.app);
    expect((await admin('grant', email)).stdout).toBe(`${email} is now an admin.\n`);
    expect(await roleOf(email)).toBe('admin');
    await admin('revoke', email);
    expect(await roleOf(email)).toBeNull();
  });

  it('refuses an address nobody signed up with', async () => {
    await expect(admin('grant', 'nobody@mail.com')).rejects.toMatchObject({
      code: 1,
      stderr: 'No account uses nobody@mail.com: the person must sign up first.\n',
    });
  });
});
