import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { paths } from '@doctors-portal/contract';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { accessTokens } from './auth/access-token.js';
import { createAuth } from './auth/auth.js';
import { authPlugin } from './auth/plugin.js';
import { databaseRateLimitStore, redisRateLimitStore } from './auth/rate-limit-store.js';
import { accountRoutes } from './auth/routes.js';
import { loadAuthSecret } from './auth/secret.js';
import { clinicMoment, clock } from './bookings/clock.js';
import { bookingRoutes } from './bookings/routes.js';
import { clinicDetails } from './clinic/details.js';
import { clinicRoutes } from './clinic/routes.js';
import { type Config, ROOT_DIR } from './config/env.js';
import type { DatabaseHandle } from './db/database.js';
import { groupCommit, type Transact } from './db/group-commit.js';
import type { Database } from './db/schema.js';
import { doctorRoutes } from './doctors/routes.js';
import { healthRoutes } from './health/routes.js';
import { AccessLog, withAccessLogSerializers } from './http/access-log.js';
import { errorBody, handleError, MAX_PARAM_LENGTH } from './http/errors.js';
import { refuseUnsafePaths } from './http/request-path.js';
import { refuseNulCharacters } from './http/text-input.js';
import { timeoutOptions } from './http/timeouts.js';
import { imageRoutes, uploadRoutes } from './images/routes.js';
import { createImageStorage } from './images/storage.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { type MailQueue, mailQueue } from './mail/queue.js';
import { demoGateway } from './payments/demo-gateway.js';
import { paymentRoutes } from './payments/routes.js';
import type { Payments } from './payments/service.js';
import { stripeClient, stripeGateway } from './payments/stripe.js';
import { openApi } from './plugins/openapi.js';
import { connectRedis } from './plugins/redis.js';
import { securityHeaders } from './plugins/security.js';
import { serveWebApp } from './spa/plugin.js';
import { treatmentRoutes } from './treatments/routes.js';
import { userRoutes } from './users/routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Kysely<Database>;
    /** Transactions for the busiest writes: on SQLite, those arriving together share a commit. */
    transact: Transact;
    mailer: Mailer;
    mailQueue: MailQueue;
    /** The card gateway and what it works with (see payments/service.ts). */
    payments: Payments;
  }
}

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  /** Where the built web app lives; defaults to web/dist. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
}

function loggerFor(config: Config): FastifyServerOptions['logger'] {
  const redact = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];
  if (config.env === 'development') {
    return { level: config.logLevel, redact, transport: { target: 'pino-pretty' } };
  }
  return { level: config.logLevel, redact };
}

/** Builds the portal's HTTP app around an open database. Starting to listen is the caller's. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  let applySecurityHeaders: ((request: IncomingMessage, response: ServerResponse) => void) | null =
    null;
  const app = Fastify({
    logger: withAccessLogSerializers(options.logger ?? loggerFor(config)),
    logController: new AccessLog(),
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
      applySecurityHeaders?.(request.raw, reply.raw);
      return handleError(error, request, reply);
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  app.addHook('preValidation', refuseNulCharacters);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry patients' data more often than not: none is kept by a browser or a
    // shared cache unless its route says it may be (the clinic's public facts do).
    if (
      request.url.startsWith('/api/') &&
      !request.url.startsWith('/api/docs') &&
      !reply.hasHeader('cache-control')
    ) {
      reply.header('cache-control', 'no-store');
    }
  });

  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.decorate('transact', groupCommit(database));

  applySecurityHeaders = await securityHeaders(app, {
    https: config.publicUrl.startsWith('https://'),
    stripe: config.payments.provider === 'stripe',
    imageOrigin:
      config.images.storage === 's3' && config.images.publicUrl
        ? new URL(config.images.publicUrl).origin
        : undefined,
  });
  // Before anything else looks at the address: dot segments and over-long paths are refused.
  app.addHook('onRequest', refuseUnsafePaths);
  await openApi(app);

  const mailer = createMailer(config, app.log);
  app.decorate('mailer', mailer);
  const queue = mailQueue({
    db: database.db,
    engine: database.engine,
    mailer,
    clinic: config.clinic,
    appointmentsUrl: `${config.publicUrl}${paths.dashboard}`,
    ratePerSecond: config.mail.ratePerSecond,
    log: app.log,
  });
  app.decorate('mailQueue', queue);
  const stripe = config.payments.provider === 'stripe' ? stripeClient(config.payments) : null;
  app.decorate('payments', {
    db: database.db,
    provider: stripe ? stripeGateway(stripe) : demoGateway(database.db),
    mail: queue,
    moment: () => clinicMoment(config.clinic.timeZone, clock.now()),
  });
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;
  const images = createImageStorage(config.images);
  app.decorate('images', images);
  app.addHook('onClose', async () => {
    await queue.close();
    mailer.close();
    images.close();
    await redis?.quit();
  });
  const rateLimits = redis ? redisRateLimitStore(redis) : databaseRateLimitStore(database.db);
  const secret = loadAuthSecret(config.auth.secret, config.dataDir);
  await authPlugin(app, {
    auth: createAuth({ config, database, mailer, rateLimits, secret, log: app.log }),
    accessTokens: accessTokens(secret, config.publicUrl),
    rateLimits,
    adminEmails: new Set(config.auth.adminEmails),
  });

  await app.register(
    async (api) => {
      if (config.benchBareRoute) {
        // The ceiling of `npm run bench`: a route that does nothing, behind the same hooks.
        api.get('/bench/bare', { schema: { hide: true } }, async () => ({ hello: 'world' }));
      }
      await api.register(healthRoutes);
      await api.register(clinicRoutes);
      await api.register(accountRoutes);
      await api.register(treatmentRoutes);
      await api.register(bookingRoutes);
      await api.register(paymentRoutes, { stripe });
      await api.register(userRoutes);
      await api.register(doctorRoutes);
      await api.register(imageRoutes);
      api.setNotFoundHandler((request, reply) =>
        reply
          .code(404)
          .send(
            errorBody(404, `No API route for ${request.method} ${request.url.split('?', 1)[0]}`),
          ),
      );
    },
    { prefix: '/api' },
  );

  await app.register(uploadRoutes);
  await serveWebApp(app, options.webRoot ?? path.join(ROOT_DIR, 'web', 'dist'), {
    clinic: clinicDetails(config),
  });
  return app;
}
