import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** How long an answer kept in memory is given again at most (decision 039). */
export const KEPT_MS = 1_000;
/** Past this many kept answers, the stale ones are swept before another is kept. */
const SWEEP_AT = 10_000;

/**
 * The requests that may have changed data: those through this app, counted as their answers go,
 * and those another instance on the same database told of (plugins/app/write-news.ts).
 */
export class WriteCount {
  #value = 0;
  readonly #toldOfWritesHere: Array<() => void> = [];

  get value(): number {
    return this.#value;
  }

  /** A request through this app may have written: counted, and told to `onWriteHere`'s listeners. */
  wroteHere(): void {
    this.#value += 1;
    for (const listener of this.#toldOfWritesHere) listener();
  }

  /** Another instance wrote, or may have while this one could not hear of it. */
  wroteElsewhere(): void {
    this.#value += 1;
  }

  /** Calls `listener` after each write through this app. */
  onWriteHere(listener: () => void): void {
    this.#toldOfWritesHere.push(listener);
  }
}

/** What a kept value is stamped with: the count, read. */
type WriteVersion = Pick<WriteCount, 'value'>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Bumped as each request that may have written answers, and as other instances tell of
     * theirs (decisions 039, 040).
     */
    writes: WriteCount;
  }
}

/**
 * Whether a request may have changed data: anything but a read, and every call to the auth
 * library, whose links and callbacks (email verification, Google's return) write on a GET.
 */
export function mayWrite(request: FastifyRequest): boolean {
  const { method } = request;
  return (
    (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') ||
    request.url.startsWith('/api/auth/')
  );
}

/**
 * Counts the requests that may have written, in `onSend`: after the route's handler (and the
 * commit it waited for), before its answer leaves, so that no later request of the caller's
 * can be answered from before the change.
 */
export const writeCountPlugin = fp(
  async (app: FastifyInstance) => {
    const writes = new WriteCount();
    app.decorate('writes', writes);
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (mayWrite(request)) writes.wroteHere();
      done(null, payload);
    });
  },
  { name: 'write-count' },
);

/**
 * Values worked out from the database, kept in memory for `ttlMs` at most and only while no
 * request through this app may have written since they were read (decision 039): a change made
 * here shows at once, one made by another instance as soon as it is told of it (with Redis) and
 * within `ttlMs` in any case, one made by another process within `ttlMs`.
 *
 * A value is stamped with the count read before the reads it comes from (`version()`), so one
 * read while a write went through is never kept.
 */
export function keptBetweenWrites<T>(writes: WriteVersion, ttlMs = KEPT_MS) {
  const entries = new Map<string, { value: T; at: number; version: number }>();
  const holds = (entry: { at: number; version: number }, now: number) =>
    entry.version === writes.value && now - entry.at < ttlMs;
  return {
    /** The count to stamp a value with: read it before the reads the value comes from. */
    version: (): number => writes.value,
    get(key: string, now = Date.now()): T | undefined {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (holds(entry, now)) return entry.value;
      entries.delete(key);
      return undefined;
    },
    /** Keeps `value`, read from the data as it stood at `version`, unless a write came since. */
    set(key: string, value: T, version: number, now = Date.now()): void {
      if (version !== writes.value) return;
      if (entries.size >= SWEEP_AT) {
        for (const [kept, entry] of entries) if (!holds(entry, now)) entries.delete(kept);
        if (entries.size >= SWEEP_AT) entries.clear();
      }
      entries.set(key, { value, at: now, version });
    },
  };
}
