import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/env.js';
import { StartupError } from '../../startup-error.js';

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

/**
 * With REDIS_URL, the instances on one database tell each other of every request that may have
 * written, so that what each keeps between writes (its callers and patients' lists, decision
 * 039) is forgotten on all of them within a message's time, not a second's. The message names
 * only the instance that sent it. Hearing nothing is never trusted: a kept value still lasts a
 * second at most, and an instance that lost its subscription forgets everything once it has it
 * back, since it may have missed news meanwhile.
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
    });
    listener.on('message', (_channel: string, sender: string) => {
      if (sender !== self) app.writes.wroteElsewhere();
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
    app.writes.onWriteHere(() => {
      redis.publish(channel, self).then(
        () => {
          telling = true;
        },
        (error: Error) => {
          if (!telling) return;
          telling = false;
          app.log.warn({ err: error }, 'not telling other instances of writes until Redis is back');
        },
      );
    });
    app.addHook('onClose', async () => {
      await listener.quit();
    });
  },
  { name: 'write-news', dependencies: ['config', 'redis', 'write-count'] },
);
