import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { AccessLog } from './access-log.js';
import { RequestLogger, requestLogger } from './request-logger.js';

/** A pino logger writing its lines (without their time) into `lines`. */
function rootLogger(level: string) {
  const lines: string[] = [];
  const root = pino(
    { level, timestamp: false, base: { pid: 1 } },
    {
      write: (line: string) => lines.push(line.trim()),
    },
  );
  return { root, lines };
}

describe("a request's logger", () => {
  it('makes no child logger for a request that writes no line', () => {
    const { root, lines } = rootLogger('info');
    const child = vi.spyOn(root, 'child');
    const log = new RequestLogger(root, { reqId: 'r1' });
    log.debug({ req: 'x' }, 'incoming request');
    log.trace('nothing');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes the lines pino's child would write, with the request's id", () => {
    const { root, lines } = rootLogger('info');
    const log = new RequestLogger(root, { reqId: 'r1' });
    log.info({ userId: 'u1' }, 'admin role granted');
    log.warn('refused a cross-site request');
    log.error({ err: new Error('broken') }, 'request failed');
    const ours = [...lines];
    lines.length = 0;
    const theirs = root.child({ reqId: 'r1' });
    theirs.info({ userId: 'u1' }, 'admin role granted');
    theirs.warn('refused a cross-site request');
    theirs.error({ err: new Error('broken') }, 'request failed');
    const withoutStack = (line: string) => line.replace(/"stack":"[^"]*"/, '');
    expect(ours.map(withoutStack)).toEqual(lines.map(withoutStack));
    expect(JSON.parse(ours[0] ?? '')).toMatchObject({ reqId: 'r1', userId: 'u1', level: 30 });
  });

  it('keeps a level set on it to its own lines, and tells which levels are on', () => {
    const { root, lines } = rootLogger('info');
    const log = new RequestLogger(root, { reqId: 'r1' });
    expect(log.level).toBe('info');
    expect(log.isLevelEnabled('debug')).toBe(false);
    log.level = 'debug';
    expect(log.isLevelEnabled('debug')).toBe(true);
    log.debug('now written');
    root.debug('not written');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['now written']);
    expect(root.level).toBe('info');
  });

  it("gives children that carry the request's id and their own bindings", () => {
    const { root, lines } = rootLogger('info');
    new RequestLogger(root, { reqId: 'r1' }).child({ job: 'mail' }).info('sent');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ reqId: 'r1', job: 'mail', msg: 'sent' });
  });

  it('leaves an app without a log as it was: its requests are answered', async () => {
    const app = Fastify({
      logger: false,
      logController: new AccessLog(),
      childLoggerFactory: requestLogger,
    });
    app.get('/ok', async (request) => {
      request.log.info('not written anywhere');
      return { ok: true };
    });
    const response = await app.inject('/ok');
    expect(response.json()).toEqual({ ok: true });
    await app.close();
  });
});
