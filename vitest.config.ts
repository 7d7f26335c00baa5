import { defaultClientConditions, defaultServerConditions } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Unit and API tests. The server suite runs on SQLite always, and once more on PostgreSQL
 * when TEST_PG_URL names a server where it may create and drop its own databases; its
 * database-free tests run once, on neither ('server-unit').
 */
// Read the workspace's own packages from their TypeScript sources. Dependencies resolve as Node
// resolves them: 'module' is a bundlers' condition, and some packages' 'module' builds (the AWS
// SDK's) are not runnable by Node.
const conditions = [
  'source',
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];
const pgUrl = process.env.TEST_PG_URL;

/**
 * The server's tests that build no app and open no database (configuration, mail rendering and
 * sending, card rules, tokens, the access log, the log's destination and requests' loggers, the
 * availability cache, ids, SQLite's rows, the prerender thread): they run once, in
 * 'server-unit', rather than once per engine.
 */
const serverUnitTests = [
  'server/src/auth/access-token.test.ts',
  'server/src/bookings/availability-cache.test.ts',
  'server/src/bookings/clock.test.ts',
  'server/src/config/env.test.ts',
  'server/src/db/ordered-id.test.ts',
  'server/src/db/sqlite-rows.test.ts',
  'server/src/http/access-log.test.ts',
  'server/src/http/logger.test.ts',
  'server/src/http/request-logger.test.ts',
  'server/src/images/config.test.ts',
  'server/src/mail/config.test.ts',
  'server/src/mail/ics.test.ts',
  'server/src/mail/mailer.test.ts',
  'server/src/mail/templates.test.ts',
  'server/src/payments/card-rules.test.ts',
  'server/src/payments/config.test.ts',
  'server/src/spa/prerender-thread.test.ts',
];

const serverProject = (engine: 'unit' | 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${engine}`,
    ...(engine === 'unit'
      ? { include: serverUnitTests }
      : {
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...serverUnitTests],
          env: { TEST_DB_ENGINE: engine },
        }),
    setupFiles: ['server/test/setup.ts'],
    // The test files of a worker share its loaded modules rather than each importing the whole
    // app anew (about 1.5 s a file, a third of the suite's time). Each file still builds its own
    // apps and databases, and the setup file runs before each; state a file leaves in a module
    // (a spy, a changed clock) is undone by that setup and its afterEach.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      { extends: true, test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      // The repository's own rules: the Node lines every dependency must accept.
      { extends: true, test: { name: 'repository', include: ['scripts/**/*.test.ts'] } },
      {
        // The web app's logic and components, in a simulated DOM, with the contract read from
        // its sources as Vite's dev server reads it (no build needed first).
        extends: true,
        resolve: { conditions: ['source', ...defaultClientConditions] },
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['web/src/test/setup.ts'],
        },
      },
      serverProject('unit'),
      serverProject('sqlite'),
      ...(pgUrl ? [serverProject('postgres')] : []),
    ],
  },
});
