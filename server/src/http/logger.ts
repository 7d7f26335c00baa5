import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import type { Config } from '../config/env.js';

/**
 * A file descriptor (standard output by default) as the log's destination: pino's own, written
 * in the background and emptied when the process exits, but handed each line as bytes. Given
 * text, pino's destination measures all the text it has gathered while a write is under way
 * again with every line it adds (`Buffer.byteLength` of the whole batch), which was 7.5 % of the
 * portal's CPU on its bare route under load; given bytes, it adds up each line's length
 * (docs/performance.md, the floor).
 */
export function logDestination(fd = 1): DestinationStream {
  const destination = pino.destination({ dest: fd, sync: false, contentMode: 'buffer' });
  return { write: (line: string) => destination.write(Buffer.from(line) as unknown as string) };
}

/**
 * The portal's log: JSON lines at LOG_LEVEL on standard output, pretty-printed in development.
 * Credentials never reach it: requests and replies are logged through serializers that write no
 * headers at all (http/access-log.ts), so no line carries an Authorization, Cookie or Set-Cookie
 * header, and no line pays for a redaction pass over what it does not hold.
 */
export function loggerFor(config: Config): FastifyServerOptions['logger'] {
  if (config.env === 'development') {
    return { level: config.logLevel, transport: { target: 'pino-pretty' } };
  }
  return { level: config.logLevel, stream: logDestination() };
}
