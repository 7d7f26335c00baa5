import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AccessLog } from './access-log.js';

async function appLogging(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, logController: new AccessLog() });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('broken');
  });
  await app.ready();
  return { app, lines };
}

describe('access log', () => {
  it('writes one line per answered request, with its id, method, address, status and time', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject('/ok?x=1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      reqId: expect.any(String),
      req: { method: 'GET', url: '/ok?x=1' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it('logs a failed request once, at error, with the cause', async () => {
    const { app, lines } = await appLogging('info');
    await app.inject('/fails');
    const completed = lines.filter((line) =>
      /^request (completed|errored)$/.test(String(line.msg)),
    );
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ res: { statusCode: 500 } });
  });

  it('shows requests as they arrive only at debug', async () => {
    const { app, lines } = await appLogging('debug');
    await app.inject('/ok');
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });
});
