import { type AvailableMonth, formatMediumDate, type IsoDate } from '@doctors-portal/contract';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, seedPatients, signUp } from '../../../test/accounts.js';
import { clinicDay } from '../../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../../test/helper.js';
import { connectTestRedis, REDIS_REQUIRED, TEST_REDIS_URL } from '../../../test/redis.js';
import { AVAILABILITY_CACHE_MS, availabilityCache } from '../../bookings/availability-cache.js';
import type { ClinicMoment } from '../../bookings/clock.js';
import { KEPT_MS } from '../../http/kept-between-writes.js';
import { readWriteNews, type WriteNews, writeNewsChannel, writeNewsMessage } from './write-news.js';

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

describe('the news an instance sends', () => {
  it('reads back as it was written', () => {
    const sender = 'e0a4f2d2-4b7e-4f55-9d0e-8f1c2a3b4c5d';
    const news: WriteNews[] = [
      { sender, kind: 'write' },
      { sender, kind: 'days', dates: [] },
      { sender, kind: 'days', dates: [clinicDay(61), clinicDay(62)] },
    ];
    for (const sent of news) {
      expect(readWriteNews(writeNewsMessage(sent))).toEqual(sent);
    }
  });

  it('stands for every day when its days are not all dates', () => {
    expect(readWriteNews('another-instance days 2031-03-03 tomorrow')).toEqual({
      sender: 'another-instance',
      kind: 'days',
      dates: [],
    });
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

  /** A day the clinic opens, some weeks ahead. */
  async function openDay(): Promise<IsoDate> {
    const month = clinicDay(40).slice(0, 7);
    const response = await t.app.inject(`/api/available/month?month=${month}`);
    const open = (response.json() as AvailableMonth).days.find((day) => day.status === 'open');
    return (open as { date: string }).date as IsoDate;
  }

  it('tells them of the day whose availability a booking changed', async (context) => {
    if (!other) return context.skip(unreachable);
    const [patient] = await seedPatients(t.db, engine, 1);
    const { token } = await t.app.accessTokens.issue(patient as NonNullable<typeof patient>);
    const date = await openDay();
    const news = await heard();
    try {
      const booked = await t.app.inject({
        method: 'POST',
        url: '/api/booking',
        headers: bearer(token),
        payload: {
          treatmentId: 'teeth-cleaning',
          date: formatMediumDate(date),
          slot: '10:00 AM - 10:30 AM',
          phone: '+1 555 010 2030',
          age: 40,
        },
      });
      expect(booked.statusCode).toBe(201);
      await news.settled();
      const told = news.messages.map(readWriteNews);
      expect(told).toContainEqual(expect.objectContaining({ kind: 'write' }));
      expect(told).toContainEqual(expect.objectContaining({ kind: 'days', dates: [date] }));
    } finally {
      news.stop();
    }
  });

  it("forgets a day's availability as soon as another instance tells of it, and only that day's", async (context) => {
    if (!other) return context.skip(unreachable);
    const answers = availabilityCache();
    const moment: ClinicMoment = {
      today: clinicDay(0),
      minutes: 600,
      timeZone: 'America/New_York',
      at: 0,
    };
    const [changed, unchanged] = [clinicDay(70), clinicDay(71)];
    const keptAt = Date.now();
    answers.set(changed, moment, '["10:00 AM - 10:30 AM"]', answers.version(), keptAt);
    answers.set(unchanged, moment, '["10:00 AM - 10:30 AM"]', answers.version(), keptAt);
    await (other as Redis).publish(
      channel,
      writeNewsMessage({ sender: 'another-instance', kind: 'days', dates: [changed] }),
    );
    while (answers.get(changed, moment, keptAt) !== undefined && Date.now() - keptAt < 2_000) {
      await sleep(5);
    }
    const forgottenAfter = Date.now() - keptAt;
    expect(answers.get(changed, moment, keptAt)).toBeUndefined();
    expect(forgottenAfter).toBeLessThan(AVAILABILITY_CACHE_MS / 2);
    expect(answers.get(unchanged, moment, keptAt)).toBeDefined();
  });

  it("shows another instance's change of the clinic's prices at once when told that every day changed", async (context) => {
    if (!other) return context.skip(unreachable);
    const date = formatMediumDate(await openDay());
    const priceShown = async () => {
      const response = await t.app.inject(`/api/available?date=${encodeURIComponent(date)}`);
      const treatments = response.json() as Array<{ _id: string; price: number }>;
      return treatments.find((treatment) => treatment._id === 'teeth-cleaning')?.price;
    };
    const before = await priceShown();
    // Another instance's administrator raises the price; this one has the old list kept.
    await t.db
      .updateTable('treatment')
      .set((eb) => ({ price_cents: eb('price_cents', '+', 1_000) }))
      .where('id', '=', 'teeth-cleaning')
      .execute();
    expect(await priceShown()).toBe(before);
    const toldAt = Date.now();
    await (other as Redis).publish(
      channel,
      writeNewsMessage({ sender: 'another-instance', kind: 'days', dates: [] }),
    );
    let shown = before;
    while (shown === before && Date.now() - toldAt < 2 * AVAILABILITY_CACHE_MS) {
      await sleep(5);
      shown = await priceShown();
    }
    expect(shown).toBe((before as number) + 10);
    expect(Date.now() - toldAt).toBeLessThan(AVAILABILITY_CACHE_MS / 2);
  });
});
