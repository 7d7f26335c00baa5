import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { apiRoutes } from './api.js';
import { type Config, ROOT_DIR } from './config/env.js';
import type { DatabaseHandle } from './db/database.js';
import { AccessLog, withAccessLogSerializers } from './http/access-log.js';
import { handleError, MAX_PARAM_LENGTH } from './http/errors.js';
import { writeCountPlugin } from './http/kept-between-writes.js';
import { loggerFor } from './http/logger.js';
import { requestLogger } from './http/request-logger.js';
import { requestPathPlugin } from './http/request-path.js';
import { responseHeadersPlugin, setResponseHeaders } from './http/response-headers.js';
import { textInputPlugin } from './http/text-input.js';
import { timeoutOptions } from './http/timeouts.js';
import { uploadRoutes } from './images/routes.js';
import { authPlugin } from './plugins/app/auth.js';
import { bookingEventsPlugin } from './plugins/app/booking-events.js';
import { configPlugin } from './plugins/app/config.js';
import { databasePlugin } from './plugins/app/database.js';
import { imagesPlugin } from './plugins/app/images.js';
import { mailPlugin } from './plugins/app/mail.js';
import { paymentsPlugin } from './plugins/app/payments.js';
import { writeNewsPlugin } from './plugins/app/write-news.js';
import { openApiPlugin } from './plugins/external/openapi.js';
import { redisPlugin } from './plugins/external/redis.js';
import { securityHeadersPlugin } from './plugins/external/security-headers.js';
import { webAppPlugin } from './spa/plugin.js';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where the built web app lives; defaults to web/dist. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the portal's HTTP app around an open database. Starting to listen is the caller's.
 *
 * Each request passes, in this order: its request id and cache policy, the security headers and
 * the address checks (onRequest), the caller's access token (onRequest, auth), the NUL check
 * (preValidation), the route's schema, its guard and handler, and as its answer goes the count
 * of requests that may have written (onSend, decision 039), told to the other instances through
 * Redis when there is one (decision 040). Every hook is synchronous unless it has work to wait
 * for, and nothing else runs per request (docs/performance.md).
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app: FastifyInstance = Fastify({
    logger: withAccessLogSerializers(options.logger ?? loggerFor(config)),
    logController: new AccessLog(),
    // A request's logger is made when first used (http/request-logger.ts).
    childLoggerFactory: requestLogger,
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    // Slow and idle clients are let go (http/timeouts.ts).
    ...timeoutOptions(config.timeouts),
    trustProxy: config.auth.trustProxy,
    // Room for any email address in a path (254 characters, more once percent-encoded).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Malformed addresses are refused before routing, before any hook: through the same
    // handler as the rest, with the security headers, and with a message a person can act on.
    frameworkErrors: (error, request, reply) => {
      app.applySecurityHeaders(request.raw, reply.raw);
      setResponseHeaders(request, reply);
      return handleError(error, request, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The one place errors become answers (http/errors.ts).
  app.setErrorHandler(handleError);

  await app.register(configPlugin, { config });
  await app.register(databasePlugin, { database });
  await app.register(writeCountPlugin);
  await app.register(textInputPlugin);
  await app.register(responseHeadersPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(requestPathPlugin);
  await app.register(openApiPlugin);
  await app.register(bookingEventsPlugin);
  await app.register(mailPlugin);
  await app.register(paymentsPlugin);
  await app.register(redisPlugin);
  await app.register(writeNewsPlugin);
  await app.register(imagesPlugin);
  await app.register(authPlugin);
  await app.register(apiRoutes, { prefix: '/api' });
  await app.register(uploadRoutes);
  await app.register(webAppPlugin, { root: options.webRoot ?? path.join(ROOT_DIR, 'web', 'dist') });
  return app;
}
