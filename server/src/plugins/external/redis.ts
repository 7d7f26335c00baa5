import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { StartupError } from '../../startup-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis of REDIS_URL, or null when the portal keeps its counters in the database. */
    redis: Redis | null;
  }
}

/** Connects to Redis and checks that it answers, so a bad REDIS_URL stops the start. */
async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 2,
  });
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    const shown = url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
    throw new StartupError(`Cannot reach Redis at ${shown}: ${(error as Error).message}`);
  }
}

/** ioredis, when REDIS_URL is set: the rate limits shared by every instance live there. */
export const redisPlugin = fp(
  async (app: FastifyInstance) => {
    const { redisUrl } = app.config;
    const redis = redisUrl ? await connectRedis(redisUrl) : null;
    app.decorate('redis', redis);
    if (redis) {
      app.addHook('onClose', async () => {
        await redis.quit();
      });
    }
  },
  { name: 'redis', dependencies: ['config'] },
);
