import { Redis } from 'ioredis';

/** The Redis the tests that need one use: TEST_REDIS_URL, or the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Under CI=true a suite that needs Redis fails without it; elsewhere it is skipped. */
export const REDIS_REQUIRED = ['1', 'true', 'yes'].includes((process.env.CI ?? '').toLowerCase());

/** A client of TEST_REDIS_URL that gives up at once, or why there is none. */
export async function connectTestRedis(): Promise<Redis | string> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    return `Redis is unreachable at ${TEST_REDIS_URL} (${(error as Error).message || 'no answer'})`;
  }
}
