import { it } from 'vitest';
import { accessToken, signUp } from '../../test/accounts.js';
import { buildTestApp } from '../../test/helper.js';

it('probe', async () => {
  const t = await buildTestApp();
  const start = performance.now();
  for (let i = 0; i < 10; i++) {
    const a = await signUp(t.app);
    await accessToken(t.app, a);
  }
  console.log('10 signups ms', performance.now() - start);
  const s2 = performance.now();
  await Promise.all(Array.from({ length: 10 }, async () => { const a = await signUp(t.app); await accessToken(t.app, a); }));
  console.log('10 parallel signups ms', performance.now() - s2);
  const u = await t.db.selectFrom('user').selectAll().limit(1).execute();
  const s = await t.db.selectFrom('session').selectAll().limit(1).execute();
  console.log(u, s);
  await t.close();
}, 120000);
