import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, signUp } from '../../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../../test/helper.js';
import { connectTestRedis, REDIS_REQUIRED, TEST_REDIS_URL } from '../../../test/redis.js';
import { KEPT_MS } from '../../http/kept-between-writes.js';
import { writeNewsChannel } from './write-news.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the channel of the instances on one database', () => {
  it('is named by the database alone, never by its credentials', () => {
    const at = (url: string) => writeNewsChannel({ engine: 'postgres', url });
    expect(at('postgres://portal:secret@db.internal:5432/portal')).toBe(
      at('postgres://other:password@db.internal/portal'),
    );
    expect(at('postgres://portal:secret@db.internal/portal')).not.toBe(
      at('postgres://portal:secret@db.internal/staging'),
    );
    expect(at('postgres://portal:secret@db.internal/portal')).not.toContain('secret');
    expect(writeNewsChannel({ engine: 'sqlite', file: 'data/portal.db' })).toBe(
      writeNewsChannel({ engine: 'sqlite', file: `${process.cwd()}/data/portal.db` }),
    );
  });
});

describe(`writes told to the other instances through Redis (${engine})`, () => {
  let t: TestApp;
  /** Another instance's connection to the same Redis. */
  let other: Redis | null = null;
  let unreachable = '';
  let channel = '';

  beforeAll(async () => {
    const connected = await connectTestRedis();
    if (typeof connected === 'string') {
      unreachable = connected;
      if (REDIS_REQUIRED) throw new Error(`${unreachable}: CI=true requires it`);
      return;
    }
    other = connected;
    t = await buildTestApp({ env: { REDIS_URL: TEST_REDIS_URL } });
    channel = writeNewsChannel(t.config.database);
  });
  afterAll(async () => {
    await t?.close();
    other?.disconnect();
  });

  /**
   * What the app sends on its channel, as another instance hears it; `settled` waits for the
   * first message and a while after it, for any that should not have come.
   */
  async function heard() {
    const listener = (other as Redis).duplicate();
    const messages: string[] = [];
    listener.on('message', (_channel: string, message: string) => messages.push(message));
    await listener.subscribe(channel);
    return {
      messages,
      settled: async () => {
        for (let waited = 0; messages.length === 0 && waited < 2_000; waited += 10) {
          await sleep(10);
        }
        await sleep(100);
      },
      stop: () => listener.disconnect(),
    };
  }

  it('tells them of each request that may have written, and not of reads', async (context) => {
    if (!other) return context.skip(unreachable);
    const news = await heard();
    try {
      await t.app.inject({ url: '/api/treatments' });
      await t.app.inject({ method: 'POST', url: '/api/contact', payload: {} });
      await news.settled();
      expect(news.messages).toHaveLength(1);
    } finally {
      news.stop();
    }
  });

  it('does not count its own news twice', async (context) => {
    if (!other) return context.skip(unreachable);
    const news = await heard();
    try {
      const before = t.app.writes.value;
      await t.app.inject({ method: 'POST', url: '/api/contact', payload: {} });
      // The app hears its own message as this listener does; it leaves the count as it was.
      await news.settled();
      expect(t.app.writes.value).toBe(before + 1);
    } finally {
      news.stop();
    }
  });

  it("refuses a token whose session another instance ended as soon as it hears of that instance's write", async (context) => {
    if (!other) return context.skip(unreachable);
    const account = await signUp(t.app);
    const token = await accessToken(t.app, account);
    const asked = () =>
      t.app.inject({ url: `/api/booking?patientMail=${account.email}`, headers: bearer(token) });
    expect((await asked()).statusCode).toBe(200);
    const keptAt = Date.now();
    // Another instance signs the patient out: its session goes, and it tells of its write.
    await t.db.deleteFrom('session').where('userId', '=', account.id).execute();
    expect((await asked()).statusCode).toBe(200);
    await (other as Redis).publish(channel, 'another-instance');
    let status = 200;
    while (status === 200 && Date.now() - keptAt < 2 * KEPT_MS) {
      status = (await asked()).statusCode;
      if (status === 200) await sleep(5);
    }
    const refusedAfter = Date.now() - keptAt;
    expect(status).toBe(401);
    // Not the second a kept caller lasts: the news.
    expect(refusedAfter).toBeLessThan(KEPT_MS / 2);
  });
});
