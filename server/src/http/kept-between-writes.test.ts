import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { keptBetweenWrites, WriteCount, writeCountPlugin } from './kept-between-writes.js';

const writes = () => ({ value: 0 });

describe('values kept between writes (decision 039)', () => {
  it('are given again within the window, and forgotten after it', () => {
    const kept = keptBetweenWrites<string>(writes(), 1_000);
    kept.set('a', 'answer', kept.version(), 5_000);
    expect(kept.get('a', 5_999)).toBe('answer');
    expect(kept.get('a', 6_000)).toBeUndefined();
    expect(kept.get('a', 5_500)).toBeUndefined();
  });

  it('are all forgotten once a request may have written', () => {
    const count = writes();
    const kept = keptBetweenWrites<string>(count, 1_000);
    kept.set('a', 'answer', kept.version(), 0);
    kept.set('b', 'other', kept.version(), 0);
    count.value += 1;
    expect(kept.get('a', 1)).toBeUndefined();
    expect(kept.get('b', 1)).toBeUndefined();
  });

  it('do not keep a value read while a write went through', () => {
    const count = writes();
    const kept = keptBetweenWrites<string>(count, 1_000);
    // Read before the value's reads begin; a write lands meanwhile.
    const before = kept.version();
    count.value += 1;
    kept.set('a', 'stale', before, 0);
    expect(kept.get('a', 1)).toBeUndefined();
  });

  it('stay bounded: past 10,000 the stale ones are swept, and if none is, all go', () => {
    const kept = keptBetweenWrites<number>(writes(), 1_000);
    for (let index = 0; index < 10_000; index += 1) kept.set(`k${index}`, index, 0, 0);
    // All still fresh: the map starts again rather than grow.
    kept.set('first', 1, 0, 10);
    expect(kept.get('k9999', 10)).toBeUndefined();
    expect(kept.get('first', 10)).toBe(1);
    for (let index = 0; index < 9_998; index += 1) kept.set(`k${index}`, index, 0, 20);
    kept.set('fresh', 2, 0, 600);
    // The ten thousand and first: those read at 10 and 20 are stale by now, the last is not.
    kept.set('later', 3, 0, 1_020);
    expect(kept.get('fresh', 1_020)).toBe(2);
    expect(kept.get('later', 1_020)).toBe(3);
    expect(kept.get('first', 1_020)).toBeUndefined();
  });
});

describe('the count of requests that may have written', () => {
  const app = async () => {
    const server = Fastify();
    await server.register(writeCountPlugin);
    // What a route saw of the count while it ran.
    const seen: number[] = [];
    // HEAD is the GET route's own (Fastify's `exposeHeadRoutes`).
    for (const method of ['GET', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      server.route({
        method,
        url: '/api/thing',
        handler: async () => {
          seen.push(server.writes.value);
          return {};
        },
      });
    }
    server.get('/api/auth/verify-email', async () => ({}));
    return { server, seen };
  };

  it('leaves reads out and counts every other method once its answer is ready', async () => {
    const { server, seen } = await app();
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      await server.inject({ method, url: '/api/thing' });
    }
    expect(server.writes.value).toBe(0);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      await server.inject({ method, url: '/api/thing' });
    }
    expect(server.writes.value).toBe(4);
    // Counted after the handler, not before: a read inside the write sees the old count.
    expect(seen.slice(3)).toEqual([0, 1, 2, 3]);
  });

  it('counts every call to the auth library, whose links write on a GET', async () => {
    const { server } = await app();
    await server.inject({ url: '/api/auth/verify-email?token=t' });
    expect(server.writes.value).toBe(1);
  });

  it('counts a write that failed: it may have written before it did', async () => {
    const server = Fastify();
    await server.register(writeCountPlugin);
    server.post('/api/thing', async () => {
      throw new Error('after a write');
    });
    expect((await server.inject({ method: 'POST', url: '/api/thing' })).statusCode).toBe(500);
    expect(server.writes.value).toBe(1);
  });
});

describe('a write count', () => {
  it('tells its listeners of the writes made here, not of those heard of from elsewhere', () => {
    const count = new WriteCount();
    const told: number[] = [];
    count.onWriteHere(() => told.push(count.value));
    count.wroteHere();
    count.wroteElsewhere();
    count.wroteHere();
    expect(count.value).toBe(3);
    expect(told).toEqual([1, 3]);
  });
});
