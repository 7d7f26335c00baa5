import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { type Bindings, type Logger, symbols } from 'pino';
import { RequestLogger } from './request-logger.js';

/** What a secret in a logged address is replaced with. */
export const REDACTED = '***';

/** The sign-in service's addresses: the only API addresses that carry secrets. */
const AUTH_PREFIX = '/api/auth/';
/** The password-reset link: its last path segment is the reset token. */
const RESET_LINK_PREFIX = '/api/auth/reset-password/';
/** The app's page a reset link leads to, with the token in its query. */
const RESET_PAGE_PREFIX = '/reset-password?';
/** A doctor's calendar feed: its last path segment is the feed's secret token (and '.ics'). */
const CALENDAR_FEED_PREFIX = '/api/calendar/';
/** A mail's one-tap link, to the API and to the app's page: the segment after it is its token. */
const VISIT_LINK_PREFIXES = ['/api/visit/', '/visit/'];
/** Query parameters that carry a secret: verification and reset tokens, OAuth's code and state. */
const SECRET_PARAMS = new Set(['token', 'code', 'state']);

/**
 * The address as the access log may keep it: a reset link's token, and the value of every
 * `token`, `code` or `state` query parameter under /api/auth/ (verification links, OAuth
 * callbacks) and on the app's reset page, are replaced with ***, and so is everything after
 * /api/calendar/ (a doctor's calendar feed token), and the token of a mail's one-tap link
 * (/api/visit/{token}/…, /visit/{token}). Such a value signs someone in, sets their
 * password or reads a doctor's appointments; a log is read by more people than should hold any. Every other
 * address is returned as it is, after one prefix check.
 */
export function redactUrl(url: string): string {
  if (url.startsWith(CALENDAR_FEED_PREFIX)) {
    // Whatever follows: the token, a mistyped one, a query. Nothing of it is worth keeping.
    return url.length > CALENDAR_FEED_PREFIX.length ? `${CALENDAR_FEED_PREFIX}${REDACTED}` : url;
  }
  for (const prefix of VISIT_LINK_PREFIXES) {
    if (url.startsWith(prefix) && url.length > prefix.length) {
      // The action after the token (/confirm, /cancel, …) is kept: it is no secret.
      const after = url.slice(prefix.length).search(/[/?]/);
      return `${prefix}${REDACTED}${after === -1 ? '' : url.slice(prefix.length + after)}`;
    }
  }
  if (!url.startsWith(AUTH_PREFIX) && !url.startsWith(RESET_PAGE_PREFIX)) return url;
  const queryAt = url.indexOf('?');
  let pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  if (pathname.startsWith(RESET_LINK_PREFIX) && pathname.length > RESET_LINK_PREFIX.length) {
    pathname = `${RESET_LINK_PREFIX}${REDACTED}`;
  }
  if (queryAt === -1) return pathname;
  const query = url.slice(queryAt + 1);
  const kept = query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' '));
    } catch {
      // Not valid percent-encoding: compared as it is.
    }
    return SECRET_PARAMS.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : pair;
  });
  return `${pathname}?${kept.join('&')}`;
}

/** Fastify's own request serializer, with the address passed through `redactUrl`. */
export function serializeRequest(request: FastifyRequest) {
  const version = request.headers?.['accept-version'];
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: Array.isArray(version) ? version.join(', ') : version,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** A reply as the log keeps it: its status, and none of its headers (Set-Cookie among them). */
export function serializeReply(reply: Pick<FastifyReply, 'statusCode'>) {
  return { statusCode: reply.statusCode };
}

/**
 * Logger options with the access log's serializers, whoever configured the rest. Neither writes
 * a header: that is what keeps credentials out of the log.
 */
export function withAccessLogSerializers(
  logger: FastifyServerOptions['logger'],
): FastifyServerOptions['logger'] {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  return {
    ...options,
    serializers: { ...options.serializers, req: serializeRequest, res: serializeReply },
  };
}

/**
 * `value` as a JSON string, as JSON.stringify writes it: between quotes as it is when nothing in
 * it needs escaping (a quote, a backslash, a control character, a surrogate), which is every
 * address a browser sends; JSON.stringify itself otherwise. Its call into C++ cost as much as the
 * rest of the line (docs/performance.md, the floor).
 */
function jsonString(value: string): string {
  for (let index = 0; index < value.length; index++) {
    const code = value.charCodeAt(index);
    if (code < 0x20 || code === 0x22 || code === 0x5c || (code >= 0xd800 && code <= 0xdfff)) {
      return JSON.stringify(value);
    }
  }
  return `"${value}"`;
}

/** A field of a JSON object as text, led by its comma; nothing when the value is undefined. */
function field(name: string, value: string | number | undefined): string {
  if (value === undefined) return '';
  // A number as JSON.stringify writes it, without the call.
  const json =
    typeof value === 'string' ? jsonString(value) : Number.isFinite(value) ? String(value) : 'null';
  return `,"${name}":${json}`;
}

/** A logger's bindings as pino writes them into a line: each a field led by its comma. */
function bindingsJson(bindings: Bindings): string {
  let json = '';
  for (const [name, value] of Object.entries(bindings)) {
    json +=
      typeof value === 'string' || typeof value === 'number'
        ? field(name, value)
        : `,"${name}":${JSON.stringify(value)}`;
  }
  return json;
}

/**
 * The line pino writes for `log.info({ req, res, responseTime }, 'request completed')` with the
 * access log's serializers and pino's default format (the portal's, http/logger.ts), built as one
 * string: the same keys in the same order, the root logger's bindings (pid, host name) as pino
 * keeps them ready and the request's own (its id). It costs a fifth of pino's general path,
 * which walks the object and its serializers on every request, and needs no child logger
 * (docs/performance.md, the portal's floor).
 */
export function accessLine(
  log: RequestLogger,
  request: FastifyRequest,
  reply: Pick<FastifyReply, 'statusCode' | 'elapsedTime'>,
): string {
  const req = serializeRequest(request);
  const rootBindings = (log.root as unknown as Record<symbol, string>)[symbols.chindingsSym] ?? '';
  return (
    `{"level":30,"time":${Date.now()}${rootBindings}${bindingsJson(log.bindings)}` +
    `,"req":{"method":${jsonString(req.method)}${field('url', req.url)}${field('version', req.version)}` +
    `${field('host', req.host)}${field('remoteAddress', req.remoteAddress)}${field('remotePort', req.remotePort)}}` +
    `,"res":{"statusCode":${reply.statusCode}}${field('responseTime', reply.elapsedTime)},"msg":"request completed"}\n`
  );
}

/** Where a pino logger writes its lines. */
function destination(log: Logger): { write(line: string): unknown } {
  const stream = (log as unknown as Record<symbol, unknown>)[symbols.streamSym];
  return stream as { write(line: string): unknown };
}

/**
 * One access line per request, written when it is answered: method, address, client, status
 * and time, under the request's id. Fastify's default writes a second line on arrival, which
 * doubled the logging cost of every call (docs/performance.md, Logging) and told an operator
 * nothing the answer's line does not, but for requests still running, which `LOG_LEVEL=debug`
 * shows. Addresses are logged through `serializeRequest`, without the secrets some carry.
 */
export class AccessLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const log = reply.log;
    if (error) {
      log.error(
        { req: request, res: reply, responseTime: reply.elapsedTime, err: error },
        'request errored',
      );
      return;
    }
    if (!(log instanceof RequestLogger)) {
      // A logger other than pino's, or a route's own child: through its own path.
      log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      return;
    }
    if (log.isLevelEnabled('info')) destination(log.root).write(accessLine(log, request, reply));
  }
}
