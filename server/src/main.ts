import './v8-flags.js';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadConfig, ROOT_DIR } from './config/env.js';
import { seedDemoDoctors } from './db/demo-doctors.js';
import { prepareDatabase } from './db/prepare.js';
import { StartupError } from './startup-error.js';

function stop(error: unknown): never {
  const explained = error instanceof StartupError;
  const code = (error as NodeJS.ErrnoException).code;
  const message =
    explained || code === 'EADDRINUSE' || code === 'EACCES'
      ? (error as Error).message
      : `unexpected error: ${(error as Error).stack ?? String(error)}`;
  console.error(`doctors-portal: cannot start: ${message}`);
  process.exit(1);
}

/**
 * Finishes in-flight requests, closes the database, then exits; a second signal exits at once.
 *
 * The listening socket closes at once, so a load balancer sends new connections elsewhere. A
 * connection that is busy at the signal stays open until its answer is sent: that answer carries
 * `Connection: close`, and connections that have fallen idle are closed every 100 ms. Without
 * that, a client's keep-alive connection (a load balancer keeps them for minutes) would hold the
 * shutdown open until the 10 s deadline.
 */
function closeOnSignals(app: FastifyInstance) {
  let closing = false;
  // Synchronous: it runs on every answer, and has nothing to wait for.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      app.log.info({ signal }, 'shutting down');
      setInterval(() => app.server.closeIdleConnections(), 100).unref();
      const deadline = setTimeout(() => {
        app.log.error('shutdown took longer than 10 s; exiting');
        process.exit(1);
      }, 10_000);
      deadline.unref();
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

async function main() {
  const envFile = path.join(ROOT_DIR, '.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  const config = loadConfig();
  const database = await prepareDatabase(config.database);
  const app = await buildApp({ config, database });
  app.addHook('onClose', () => database.close());
  // A fresh portal shows a few doctors; a portal that has had doctors or bookings gets none.
  await seedDemoDoctors(database.db, app.images).then(
    ({ inserted }) => inserted > 0 && app.log.info({ doctors: inserted }, 'added the demo doctors'),
    (error: unknown) => app.log.error({ err: error }, 'could not add the demo doctors'),
  );
  closeOnSignals(app);
  try {
    // Node queues 511 connections the process has not yet accepted; a burst beyond that (a
    // proxy reconnecting, thousands of slow clients) has its SYNs dropped, and each client
    // waits for TCP's 1 s retry. The kernel caps this at net.core.somaxconn (4096 here).
    await app.listen({ host: config.host, port: config.port, backlog: 4096 });
  } catch (error) {
    await app.close();
    throw error;
  }
}

main().catch(stop);
