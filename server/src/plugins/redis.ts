import { Redis } from 'ioredis';
import { StartupError } from '../startup-error.js';

/** Connects to Redis and checks that it answers, so a bad REDIS_URL stops the start. */
export async function connectRedis(url: string): Promise<Redis> {
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
