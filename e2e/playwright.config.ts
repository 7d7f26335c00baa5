import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import chromiumFlags from '../scripts/chromium-flags.json' with { type: 'json' };
import { baseURL, portalEnv } from './fixtures/portal.js';

/**
 * End-to-end tests in Debian's Chromium against the BUILT portal.
 *
 *   npm run build                                   # once, after changing server or web code
 *   npx playwright test -c e2e/playwright.config.ts # from the repository root
 *
 * `npm test` (scripts/test.mjs) builds first and runs this. The server starts on its own port
 * (E2E_PORT, default 3210) with a fresh data directory in the system's temp folder, emptied at
 * every start. Never run `npx playwright install`: the browser is /usr/bin/chromium (apt-get
 * install chromium) or whatever CHROMIUM_PATH names.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const ci = !!process.env.CI;

export default defineConfig({
  testDir: path.join(here, 'tests'),
  outputDir: path.join(here, 'artifacts', 'test-output'),
  fullyParallel: true,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  workers: 2,
  // CI runs this beside the Node 22 and 24 suites on 2 cores: there the sign-up, admin and
  // account tests took 22 to 31 s (2026-11-27), at the old 30 s limit. The journeys set more.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: path.join(root, 'test-results', 'e2e.json') }]],
  use: {
    baseURL,
    // A trace only when a test is tried again (CI retries once; locally, `--trace on`): recording
    // one for every test took a fifth of the suite's time (admin and foundation specs, 42 tests:
    // 156 and 159 s with, 125 and 121 s without, 2026-11-27).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumFlags,
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    // Node with tsx's loader (this workspace's dependency), in one process: SIGTERM reaches the
    // portal itself.
    command: 'node --import tsx fixtures/serve.ts',
    cwd: here,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    env: portalEnv,
  },
});
