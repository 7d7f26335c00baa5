import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';

export interface RateLimitRule {
  /** Seconds. */
  window: number;
  max: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window frees up; null when allowed. */
  retryAfter: number | null;
}

/**
 * Counters shared by every instance of the portal: the auth library's per-client limits and
 * the per-account login throttle both live here. `consume` counts and checks in one atomic step.
 */
export interface RateLimitStore {
  consume(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
  /** Takes back one count of `consume`'s, never going below none. */
  release(key: string): Promise<void>;
}

const verdict = (
  count: number,
  startedAt: number,
  rule: RateLimitRule,
  now: number,
): RateLimitResult =>
  count <= rule.max
    ? { allowed: true, retryAfter: null }
    : {
        allowed: false,
        retryAfter: Math.max(1, Math.ceil((startedAt + rule.window * 1000 - now) / 1000)),
      };

/** Fixed windows in the database's `rateLimit` table: one upsert per request. */
export function databaseRateLimitStore(db: Kysely<Database>): RateLimitStore {
  return {
    async consume(key, rule) {
      const now = Date.now();
      const windowStart = now - rule.window * 1000;
      const { rows } = await sql<{ count: number; lastRequest: number | string }>`
        insert into "rateLimit" (id, key, count, "lastRequest") values (${randomUUID()}, ${key}, 1, ${now})
        on conflict (key) do update set
          count = case when "rateLimit"."lastRequest" < ${windowStart} then 1 else "rateLimit".count + 1 end,
          "lastRequest" = case when "rateLimit"."lastRequest" < ${windowStart} then ${now} else "rateLimit"."lastRequest" end
        returning count, "lastRequest"`.execute(db);
      const row = rows[0] as { count: number; lastRequest: number | string };
      return verdict(row.count, Number(row.lastRequest), rule, now);
    },
    async reset(key) {
      await db.deleteFrom('rateLimit').where('key', '=', key).execute();
    },
    async release(key) {
      await db
        .updateTable('rateLimit')
        .set((eb) => ({ count: eb('count', '-', 1) }))
        .where('key', '=', key)
        .where('count', '>', 0)
        .execute();
    },
  };
}

/** Fixed windows in Redis, for several instances without database writes per request. */
export function redisRateLimitStore(redis: Redis): RateLimitStore {
  const prefix = 'portal:rate:';
  return {
    async consume(key, rule) {
      const [[, count], [, ttl]] = (await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, rule.window * 1000, 'NX')
        .pttl(prefix + key)
        .exec()
        .then((results) => [results?.[0], results?.[2]])) as [[unknown, number], [unknown, number]];
      return count <= rule.max
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async release(key) {
      // Only a counter that still exists: DECR on a key that has expired would create one that
      // never expires.
      await redis.eval(
        "if tonumber(redis.call('get', KEYS[1]) or '0') > 0 then return redis.call('decr', KEYS[1]) end return 0",
        1,
        prefix + key,
      );
    },
  };
}
