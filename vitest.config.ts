import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Unit and API tests. The server suite runs on SQLite always, and once more on PostgreSQL
 * when TEST_PG_URL names a server where it may create and drop its own databases.
 */
// Read the workspace's own packages from their TypeScript sources. Dependencies resolve as Node
// resolves them: 'module' is a bundlers' condition, and some packages' 'module' builds (the AWS
// SDK's) are not runnable by Node.
const conditions = [
  'source',
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];
const pgUrl = process.env.TEST_PG_URL;

const serverProject = (engine: 'sqlite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `server-${engine}`,
    include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
    env: { TEST_DB_ENGINE: engine },
    setupFiles: ['server/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      { extends: true, test: { name: 'contract', include: ['contract/src/**/*.test.ts'] } },
      {
        // The web app's logic and components, in a simulated DOM.
        extends: true,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['web/src/test/setup.ts'],
        },
      },
      serverProject('sqlite'),
      ...(pgUrl ? [serverProject('postgres')] : []),
    ],
  },
});
