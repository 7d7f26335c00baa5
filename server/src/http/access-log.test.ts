import { Writable } from 'node:stream';
import Fastify, { type FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLog, accessLine, redactUrl, withAccessLogSerializers } from './access-log.js';
import { RequestLogger, requestLogger } from './request-logger.js';

async function appLogging(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({
    logger: { level, stream },
    logController: new AccessLog(),
    childLoggerFactory: requestLogger,
  });
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

describe('the access line', () => {
  /** A request as Fastify hands it to the log, with text that JSON must escape. */
  function requestFor(url: string, host: string | undefined, version?: string) {
    return {
      method: 'GET',
      url,
      headers: version === undefined ? {} : { 'accept-version': version },
      host,
      ip: '127.0.0.1',
      socket: { remotePort: 50123 },
    } as unknown as FastifyRequest;
  }

  it.each([
    ['/api/booking?patientMail=a%40b.com', '127.0.0.1:3000', undefined],
    ['/api/x?q="quoted"\\back\u0001slash&é=日本', 'evil"host\\', '2.x'],
    ['/api/auth/reset-password/s3cret', undefined, undefined],
  ])('is, for %s, the line pino itself writes', (url, host, version) => {
    const lines: string[] = [];
    const root = pino(withAccessLogSerializers({ level: 'info' }) as object, {
      write: (line: string) => lines.push(line),
    });
    const request = requestFor(url, host, version);
    const reply = { statusCode: 409, elapsedTime: 1.2345678 };

    root
      .child({ reqId: 'c0ffee' })
      .info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    const ours = accessLine(new RequestLogger(root, { reqId: 'c0ffee' }), request, reply);
    const theirs = lines[0] ?? '';
    const withoutTime = (line: string) => line.replace(/"time":\d+/, '"time":0');
    expect(withoutTime(ours)).toBe(withoutTime(theirs));
    expect(JSON.parse(ours)).toMatchObject({ reqId: 'c0ffee', req: { url: redactUrl(url) } });
  });
});

describe('addresses in the access log', () => {
  it.each([
    [
      '/api/auth/reset-password/abc123XYZ?callbackURL=%2Freset-password',
      '/api/auth/reset-password/***?callbackURL=%2Freset-password',
    ],
    ['/api/auth/reset-password/abc123XYZ', '/api/auth/reset-password/***'],
    [
      '/api/auth/verify-email?token=eyJ.x.y&callbackURL=%2F',
      '/api/auth/verify-email?token=***&callbackURL=%2F',
    ],
    [
      '/api/auth/callback/google?code=c0de&state=st4te&iss=http%3A%2F%2Fidp',
      '/api/auth/callback/google?code=***&state=***&iss=http%3A%2F%2Fidp',
    ],
    [
      '/api/auth/oauth2/callback/google?state=s&code=c',
      '/api/auth/oauth2/callback/google?state=***&code=***',
    ],
    [
      '/api/auth/anything?Token=a&%74oken=b&other=c&token',
      '/api/auth/anything?Token=***&%74oken=***&other=c&token=***',
    ],
    ['/reset-password?token=abc123XYZ', '/reset-password?token=***'],
    ['/api/calendar/c4lEnd4r-t0k3n_x.ics', '/api/calendar/***'],
    ['/api/calendar/c4lEnd4r-t0k3n_x.ics?ref=google', '/api/calendar/***?ref=google'],
    ['/api/visit/WyJhIiwiY29uZmlybSJd-sig_x', '/api/visit/***'],
    ['/api/visit/WyJhIiwiY29uZmlybSJd-sig_x/cancel', '/api/visit/***/cancel'],
    ['/visit/WyJhIiwiY29uZmlybSJd-sig_x?utm=mail', '/visit/***?utm=mail'],
    // Any spelling a router might be sent: a trailing slash, doubled or dot segments, another
    // case, percent-encoding, a parameter; and a secret parameter on any address.
    ['/reset-password/?token=abc123XYZ', '/reset-password/?token=***'],
    ['//reset-password?token=abc123XYZ', '//reset-password?token=***'],
    ['/reset-password;x?token=abc123XYZ', '/reset-password;x?token=***'],
    ['/api//auth/reset-password/abc123XYZ', '/api//auth/reset-password/***'],
    ['/api/auth/RESET-PASSWORD/abc123XYZ', '/api/auth/RESET-PASSWORD/***'],
    ['/api/auth/./reset-password/abc123XYZ', '/api/auth/./reset-password/***'],
    ['/api/auth/reset%2Dpassword/abc123XYZ', '/api/auth/reset-password/***'],
    ['/api/VISIT/WyJhIiwiY29uZmlybSJd-sig_x/confirm', '/api/VISIT/***/confirm'],
    ['/api//calendar/c4lEnd4r-t0k3n_x.ics', '/api//calendar/***'],
    ['/api/authx/verify-email?token=x', '/api/authx/verify-email?token=***'],
    ['/dashboard/payment/42?code=x', '/dashboard/payment/42?code=***'],
    ['/api/booking?email=a@mail.com&token=x', '/api/booking?email=a@mail.com&token=***'],
  ])('keeps %s as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });

  it.each([
    '/api/health',
    '/api/booking?patientMail=a%40mail.com',
    '/api/available?date=Dec%2015%2C%202026',
    '/api/auth/get-session',
    '/api/auth/get-session?disableCookieCache=true',
    '/api/calendar/',
    '/api/visit/',
    '/visits/x',
    '/api/doctor/42/calendar-feed',
  ])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('writes the redacted address in the access line, whatever else the logger was given', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const app = Fastify({
      logger: withAccessLogSerializers({ level: 'debug', stream }),
      logController: new AccessLog(),
      childLoggerFactory: requestLogger,
    });
    app.get('/api/auth/verify-email', async () => ({ ok: true }));
    await app.inject('/api/auth/verify-email?token=secret-value&callbackURL=%2F');
    expect(lines.map((line) => line.req)).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: '/api/auth/verify-email?token=***&callbackURL=%2F',
      }),
      expect.objectContaining({
        method: 'GET',
        url: '/api/auth/verify-email?token=***&callbackURL=%2F',
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-value');
  });

  it('writes no header of a request or a reply, so no credential, in any line', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({
      logger: withAccessLogSerializers({ level: 'debug', stream }),
      logController: new AccessLog(),
      childLoggerFactory: requestLogger,
    });
    app.get('/api/me', async (request, reply) => {
      reply.header('set-cookie', 'session=set-cookie-secret; HttpOnly');
      // A route's own line about its request and reply goes through the same serializers.
      request.log.info({ req: request, res: reply }, 'looked at');
      return { ok: true };
    });
    await app.inject({
      url: '/api/me',
      headers: { authorization: 'Bearer bearer-secret', cookie: 'session=cookie-secret' },
    });
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
      'incoming request',
      'looked at',
      'request completed',
    ]);
    for (const secret of ['bearer-secret', 'cookie-secret', 'set-cookie-secret']) {
      expect(lines.join('')).not.toContain(secret);
    }
  });
});
