import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { TIMEOUTS } from './timeouts.js';

/** Sends one whole request on a new connection; resolves with how long the server kept it after. */
function idleAfterAnswer(port: number): Promise<{ answer: string; keptMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let answeredAt = 0;
    socket.setEncoding('utf8');
    socket.on('connect', () =>
      socket.write('GET /api/health HTTP/1.1\r\nHost: portal.localhost\r\n\r\n'),
    );
    socket.on('data', (chunk: string) => {
      answer += chunk;
      answeredAt ||= performance.now();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, keptMs: performance.now() - answeredAt }));
  });
}

describe(`the server's timeouts (${engine})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('limits headers, whole requests, idle keep-alive and stalled connections', () => {
    expect(t.app.server.headersTimeout).toBe(15_000);
    expect(t.app.server.requestTimeout).toBe(120_000);
    expect(t.app.server.keepAliveTimeout).toBe(10_000);
    expect(t.app.server.timeout).toBe(120_000);
    expect(TIMEOUTS).toEqual({
      headers: 15_000,
      request: 120_000,
      keepAlive: 10_000,
      idle: 120_000,
    });
  });

  it('takes the header and keep-alive timeouts from HEADERS_TIMEOUT and KEEP_ALIVE_TIMEOUT', async () => {
    const short = await buildTestApp({ env: { HEADERS_TIMEOUT: '2.5', KEEP_ALIVE_TIMEOUT: '1' } });
    try {
      expect(short.app.server.headersTimeout).toBe(2500);
      expect(short.app.server.keepAliveTimeout).toBe(1000);
      await short.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = short.app.server.address() as AddressInfo;
      // A connection left idle after its answer is closed about a second later, not 72 s (the
      // framework's default).
      const { answer, keptMs } = await idleAfterAnswer(port);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(keptMs).toBeGreaterThanOrEqual(900);
      expect(keptMs).toBeLessThan(3000);
    } finally {
      await short.close();
    }
  });
});
