import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/env.js';

/**
 * The portal's log: JSON lines at LOG_LEVEL, pretty-printed in development. Credentials never
 * reach it: requests and replies are logged through serializers that write no headers at all
 * (http/access-log.ts), so no line carries an Authorization, Cookie or Set-Cookie header, and
 * no line pays for a redaction pass over what it does not hold.
 */
export function loggerFor(config: Config): FastifyServerOptions['logger'] {
  if (config.env === 'development') {
    return { level: config.logLevel, transport: { target: 'pino-pretty' } };
  }
  return { level: config.logLevel };
}
