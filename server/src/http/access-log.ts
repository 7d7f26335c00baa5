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

/** Query parameters that carry a secret: verification and reset tokens, OAuth's code and state. */
const SECRET_PARAMS = new Set(['token', 'code', 'state']);
/**
 * Whether a query may name one of them: a name that starts like one, or a percent-encoded name
 * (`%74oken`). A percent-encoded value (`date=Dec%2015%2C%202026`) is not looked into.
 */
const MAY_HOLD_SECRET_PARAM = /(?:^|&)(?:token|code|state|[^=&]*%)/i;
/**
 * Path segments followed by a secret: a reset link's token, a mail's one-tap link's token (to
 * the API and to the app's page) and a doctor's calendar feed's token.
 */
const SECRET_SEGMENT_AFTER = ['/reset-password/', '/visit/', '/calendar/'];
/** Whether a path may hold one (any spelling the router might be sent: case, percent-encoding). */
const MAY_HOLD_SECRET_SEGMENT = /reset-password|visit|calendar|%/i;

/**
 * The address as the access log may keep it: the value of every `token`, `code` or `state`
 * query parameter (verification and reset links, OAuth callbacks) and the path segment after
 * /reset-password/, /visit/ (a mail's one-tap link; the action after it is kept) and /calendar/
 * (a doctor's feed; nothing after it is kept) are replaced with ***, whatever the case, the
 * percent-encoding or the prefix the address was sent with. Such a value signs someone in, sets
 * their password or reads a doctor's appointments; a log is read by more people than should hold
 * any. An address that names none of them is returned as it is, after two quick tests.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const keptPath = MAY_HOLD_SECRET_SEGMENT.test(path) ? redactPath(path) : path;
  if (queryAt === -1) return keptPath;
  const query = url.slice(queryAt + 1);
  if (keptPath === path && !MAY_HOLD_SECRET_PARAM.test(query)) return url;
  return `${keptPath}?${redactQuery(query)}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: read as it is.
    return text;
  }
}

function redactPath(path: string): string {
  const plain = decoded(path);
  const lower = plain.toLowerCase();
  for (const marker of SECRET_SEGMENT_AFTER) {
    const at = lower.indexOf(marker);
    const secretAt = at + marker.length;
    if (at === -1 || secretAt === plain.length) continue;
    const kept = plain.slice(0, secretAt);
    if (marker === '/calendar/') return `${kept}${REDACTED}`;
    const next = plain.indexOf('/', secretAt);
    return `${kept}${REDACTED}${next === -1 ? '' : plain.slice(next)}`;
  }
  return path;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      const name = decoded(rawName.replaceAll('+', ' ')).toLowerCase();
      return SECRET_PARAMS.has(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
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
