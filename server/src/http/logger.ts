import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config/env.js';

/**
 * The portal's log: JSON lines at LOG_LEVEL, pretty-printed in development. Credentials never
 * reach it: the Authorization and Cookie headers and Set-Cookie are redacted.
 */
export function loggerFor(config: Config): FastifyServerOptions['logger'] {
  const redact = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];
  if (config.env === 'development') {
    return { level: config.logLevel, redact, transport: { target: 'pino-pretty' } };
  }
  return { level: config.logLevel, redact };
}
