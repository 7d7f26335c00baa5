import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { IsoDate } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  forgetAvailabilityAnswersChangedElsewhere,
  onAvailabilityAnswersForgotten,
} from '../../bookings/availability-cache.js';
import { forgetClinicCalendar } from '../../clinic/calendar.js';
import type { Config } from '../../config/env.js';
import { StartupError } from '../../startup-error.js';
import { forgetCachedTreatments } from '../../treatments/repository.js';

/**
 * The Redis channel of the instances on one database: its address without credentials, hashed,
 * so that deployments sharing a Redis do not hear of each other's writes.
 */
export function writeNewsChannel(database: Config['database']): string {
  let identity: string;
  if (database.engine === 'sqlite') {
    identity = `sqlite:${path.resolve(database.file)}`;
  } else {
    const url = new URL(database.url);
    identity = `postgres://${url.hostname}:${url.port || '5432'}${url.pathname}`;
  }
  return `portal:writes:${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
}

const DAYS = 'days';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What an instance tells the others: `<sender>` for a request that may have written, and
 * `<sender> days [<date> …]` for the days whose availability it changed (no date: every day).
 */
export type WriteNews = { sender: string } & (
  | { kind: 'write' }
  | { kind: 'days'; dates: readonly IsoDate[] }
);

export function writeNewsMessage(news: WriteNews): string {
  return news.kind === 'write' ? news.sender : [news.sender, DAYS, ...news.dates].join(' ');
}

/** A message read back; a list of days with anything but dates in it stands for every day. */
export function readWriteNews(message: string): WriteNews {
  const [sender = '', kind, ...dates] = message.split(' ');
  if (kind !== DAYS) return { sender, kind: 'write' };
  const valid = dates.every((date) => ISO_DATE.test(date));
  return { sender, kind: 'days', dates: valid ? (dates as IsoDate[]) : [] };
}

/**
 * What another instance's news of `dates` makes this one forget: those days' availability; with
 * no date (the clinic changed its treatments, doctors or calendar), every day's, and the
 * treatments and the calendar it keeps, so that it shows the change at once as well.
 */
function forgetChangedElsewhere(app: FastifyInstance, dates: readonly IsoDate[]): void {
  if (dates.length === 0) {
    forgetCachedTreatments(app.db);
    forgetClinicCalendar(app.db);
  }
  forgetAvailabilityAnswersChangedElsewhere(dates);
}

/**
 * With REDIS_URL, the instances on one database tell each other of every request that may have
 * written, so that what each keeps between writes (its callers and patients' lists, decision
 * 039) is forgotten on all of them within a message's time, not a second's; and of the days
 * whose availability they changed, so that each forgets its answers for those days. A message
 * names only the instance that sent it, and the days. Hearing nothing is never trusted: a kept
 * value still lasts a second at most, and an instance that lost its subscription forgets
 * everything once it has it back, since it may have missed news meanwhile.
 */
export const writeNewsPlugin = fp(
  async (app: FastifyInstance) => {
    const { redis } = app;
    if (!redis) return;
    const channel = writeNewsChannel(app.config.database);
    const self = randomUUID();
    // A subscribed connection can do nothing else: the news has a connection of its own.
    const listener = redis.duplicate();
    let listening = false;
    listener.on('error', (error) => {
      if (!listening) return;
      listening = false;
      app.log.warn({ err: error }, 'not hearing of other instances’ writes until Redis is back');
    });
    listener.on('ready', () => {
      listening = true;
      app.writes.wroteElsewhere();
      forgetChangedElsewhere(app, []);
    });
    listener.on('message', (_channel: string, message: string) => {
      const news = readWriteNews(message);
      if (news.sender === self) return;
      if (news.kind === 'write') app.writes.wroteElsewhere();
      else forgetChangedElsewhere(app, news.dates);
    });
    try {
      await listener.subscribe(channel);
    } catch (error) {
      listener.disconnect();
      throw new StartupError(
        `Cannot subscribe to the other instances' writes in Redis: ${(error as Error).message}`,
      );
    }
    // One warning while telling fails, not one a write.
    let telling = true;
    const tell = (news: WriteNews) => {
      redis.publish(channel, writeNewsMessage(news)).then(
        () => {
          telling = true;
        },
        (error: Error) => {
          if (!telling) return;
          telling = false;
          app.log.warn({ err: error }, 'not telling other instances of writes until Redis is back');
        },
      );
    };
    app.writes.onWriteHere(() => tell({ sender: self, kind: 'write' }));
    const stopTellingOfDays = onAvailabilityAnswersForgotten((dates) =>
      tell({ sender: self, kind: 'days', dates }),
    );
    app.addHook('onClose', async () => {
      stopTellingOfDays();
      await listener.quit();
    });
  },
  { name: 'write-news', dependencies: ['config', 'database', 'redis', 'write-count'] },
);
