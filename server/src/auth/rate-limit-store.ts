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
  /** Checks without counting. */
  peek(key: string, rule: RateLimitRule): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
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
    async peek(key, rule) {
      const now = Date.now();
      const row = await db
        .selectFrom('rateLimit')
        .select(['count', 'lastRequest'])
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row || Number(row.lastRequest) < now - rule.window * 1000)
        return { allowed: true, retryAfter: null };
      return verdict(row.count + 1, Number(row.lastRequest), rule, now);
    },
    async reset(key) {
      await db.deleteFrom('rateLimit').where('key', '=', key).execute();
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
    async peek(key, rule) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return Number(count ?? 0) + 1 <= rule.max
        ? { allowed: true, retryAfter: null }
        : { allowed: false, retryAfter: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
  };
}
