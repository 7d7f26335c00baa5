#!/usr/bin/env node
// `npm test`: every test suite of the portal, one closing line summing them all.
//
//   1. Vitest: contract and server tests on SQLite (always), then the server tests on PostgreSQL
//      when TEST_PG_URL is set (postgres://postgres@127.0.0.1:5432/postgres; the tests create and
//      drop their own databases).
//   2. `npm run build`, then the landing route's bundle budget (scripts/check-bundle.mjs).
//   3. Playwright end-to-end tests in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
//      against the built server.
//
// Environment:
//   TEST_PG_URL   run the server suite on PostgreSQL too
//   REQUIRE_PG=1  fail when the PostgreSQL suite is skipped or ran no test (CI sets it)
//   REQUIRE_E2E=1 fail when the end-to-end suite is skipped or ran no test (CI sets it)
//   CHROMIUM_PATH the Chromium binary (default /usr/bin/chromium)
//
// Reports: test-results/vitest.json, test-results/vitest-postgres.json, test-results/e2e.json.
// The last line printed is always `N passed, N failed[, N skipped]`; the exit code is non-zero
// when anything failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'test-results');
const started = Date.now();

const flag = (name) => ['1', 'true', 'yes'].includes((process.env[name] ?? '').toLowerCase());
const requirePg = flag('REQUIRE_PG');
const requireE2e = flag('REQUIRE_E2E');
const pgUrl = process.env.TEST_PG_URL || '';
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** One row per suite: name, passed, failed, skipped, and a note. */
const suites = [];
const notes = [];
/** Each failed test, named in the summary so that the tail of a CI log says what broke. */
const failures = [];

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes start with ESC.
const COLOUR_CODES = /\u001b\[[0-9;]*m/g;

/** The first line of a failure message, without colour codes, short enough for one line. */
function firstLine(message = '') {
  const line = String(message).replace(COLOUR_CODES, '').trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function banner(title) {
  const line = '═'.repeat(Math.max(8, 72 - title.length - 4));
  console.log(`\n══ ${title} ${line}`);
}

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** A local binary from node_modules/.bin, else through npx. */
function bin(name) {
  const local = path.join(ROOT, 'node_modules', '.bin', name);
  return fs.existsSync(local) ? [local] : ['npx', '--no-install', name];
}

/** Runs a command with its output streamed to ours; resolves to its exit code. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    child.on('error', (error) => {
      console.error(`test: cannot run ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Runs Vitest with the default and JSON reporters; returns the counts from its report. */
async function vitest(name, args, reportFile, env = {}) {
  const since = Date.now();
  fs.rmSync(reportFile, { force: true });
  const [command, ...pre] = bin('vitest');
  const code = await run(
    command,
    [
      ...pre,
      'run',
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.relative(ROOT, reportFile)}`,
      ...args,
    ],
    env,
  );
  const report = readJson(reportFile);
  const row = { name, passed: 0, failed: 0, skipped: 0, note: '' };
  if (report) {
    row.passed = report.numPassedTests ?? 0;
    row.failed = report.numFailedTests ?? 0;
    row.skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    const files = report.testResults?.length ?? 0;
    // A test file that fails to load has no tests to count: count it as one failure.
    const brokenFiles = (report.testResults ?? []).filter(
      (file) =>
        file.status === 'failed' && !file.assertionResults?.some((t) => t.status === 'failed'),
    ).length;
    row.failed += brokenFiles;
    for (const file of report.testResults ?? []) {
      const where = path.relative(ROOT, file.name);
      const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const test of failed) {
        failures.push(
          `${name}: ${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`,
        );
      }
      if (file.status === 'failed' && failed.length === 0) {
        failures.push(`${name}: ${where}: ${firstLine(file.message)}`);
      }
    }
    row.note = `${files} file${files === 1 ? '' : 's'}`;
    if (brokenFiles) row.note += `, ${brokenFiles} failed to load`;
  }
  if (code !== 0 && row.failed === 0) {
    // Errors outside any test (unhandled rejections, a broken config): still a failure.
    row.failed = 1;
    row.note = `${row.note ? `${row.note}, ` : ''}vitest exited with code ${code}`;
  } else if (!report) {
    row.note = 'no JSON report';
  }
  row.note += `, ${seconds(since)}`;
  suites.push(row);
  return { code, report, row };
}

// ── 1. Unit and API tests ────────────────────────────────────────────────────────────────────
banner('Vitest: contract and server on SQLite');
await vitest(
  'vitest (SQLite)',
  pgUrl ? ['--project', '!server-postgres'] : [],
  path.join(RESULTS, 'vitest.json'),
);

if (pgUrl) {
  banner('Vitest: server on PostgreSQL');
  const { row } = await vitest(
    'vitest (PostgreSQL)',
    ['--project', 'server-postgres'],
    path.join(RESULTS, 'vitest-postgres.json'),
  );
  const ran = row.passed + row.failed;
  if (ran === 0) {
    const message = 'PostgreSQL suite ran no test (no server-postgres tests found)';
    if (requirePg) {
      row.failed += 1;
      row.note += `; ${message} and REQUIRE_PG is set`;
    }
    notes.push(`${requirePg ? 'FAILED' : 'Note'}: ${message}`);
  } else {
    notes.push(`PostgreSQL suite ran: ${ran} tests against ${redact(pgUrl)}`);
  }
} else {
  const message = 'Skipped: PostgreSQL suite (set TEST_PG_URL=postgres://… to run it)';
  console.log(`\n${message}`);
  notes.push(message);
  if (requirePg) {
    suites.push({
      name: 'vitest (PostgreSQL)',
      passed: 0,
      failed: 1,
      skipped: 0,
      note: 'REQUIRE_PG is set but TEST_PG_URL is not',
    });
  }
}

// ── 2. Build and bundle budget ───────────────────────────────────────────────────────────────
banner('Build (npm run build)');
let since = Date.now();
const buildCode = await run('npm', ['run', 'build']);
const built = buildCode === 0;
if (!built) {
  suites.push({
    name: 'build',
    passed: 0,
    failed: 1,
    skipped: 0,
    note: `npm run build exited with code ${buildCode}`,
  });
} else {
  console.log(`Built in ${seconds(since)}`);
  banner('Bundle budget (scripts/check-bundle.mjs)');
  const code = await run(process.execPath, [path.join('scripts', 'check-bundle.mjs')]);
  suites.push({
    name: 'bundle budget',
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    note: code === 0 ? 'landing route within 150 KB gzip' : 'see check-bundle output above',
  });
}

// ── 3. End-to-end ────────────────────────────────────────────────────────────────────────────
banner('Playwright end-to-end (Chromium)');
if (!fs.existsSync(chromium)) {
  const message = `Skipped: end-to-end suite (no Chromium at ${chromium}; install Debian's "chromium" package or set CHROMIUM_PATH)`;
  console.log(message);
  notes.push(message);
  if (requireE2e) {
    suites.push({
      name: 'e2e',
      passed: 0,
      failed: 1,
      skipped: 0,
      note: 'REQUIRE_E2E is set but Chromium is missing',
    });
  }
} else if (!built) {
  const message = 'Not run: end-to-end suite (the build failed)';
  console.log(message);
  notes.push(message);
} else {
  since = Date.now();
  const reportFile = path.join(RESULTS, 'e2e.json');
  fs.rmSync(reportFile, { force: true });
  const [command, ...pre] = bin('playwright');
  const code = await run(
    command,
    [...pre, 'test', '-c', path.join('e2e', 'playwright.config.ts'), '--reporter=list,json'],
    { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile },
  );
  const report = readJson(reportFile);
  const row = { name: 'e2e (Playwright)', passed: 0, failed: 0, skipped: 0, note: '' };
  if (report?.stats) {
    const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats;
    row.passed = expected + flaky;
    row.failed = unexpected;
    row.skipped = skipped;
    if (flaky) row.note = `${flaky} flaky (passed on retry)`;
    for (const { file, title, error } of failedSpecs(report.suites)) {
      failures.push(`e2e: ${file} › ${title}: ${firstLine(error)}`);
    }
    // Errors outside tests (webServer did not start, config errors).
    const errors = report.errors?.length ?? 0;
    if (errors && row.failed === 0) {
      row.failed = errors;
      row.note = `${errors} error${errors === 1 ? '' : 's'} outside tests`;
    }
  }
  if (code !== 0 && row.failed === 0) {
    row.failed = 1;
    row.note = `playwright exited with code ${code}${report ? '' : ', no JSON report'}`;
  }
  if (row.passed + row.failed === 0 && requireE2e) {
    row.failed = 1;
    row.note = 'REQUIRE_E2E is set but the end-to-end suite ran no test';
  }
  row.note = `${row.note ? `${row.note}, ` : ''}${seconds(since)}`;
  suites.push(row);
}

/** The specs of a Playwright JSON report whose outcome was unexpected, through nested suites. */
function* failedSpecs(suitesOfReport = []) {
  for (const suite of suitesOfReport) {
    for (const spec of suite.specs ?? []) {
      const test = (spec.tests ?? []).find((t) => t.status === 'unexpected');
      if (!test) continue;
      const error = test.results?.at(-1)?.error?.message;
      yield { file: spec.file, title: spec.title, error };
    }
    yield* failedSpecs(suite.suites);
  }
}

// ── Summary ──────────────────────────────────────────────────────────────────────────────────
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'TEST_PG_URL';
  }
}

banner('Summary');
for (const row of suites) {
  const status = row.failed > 0 ? 'FAIL' : 'ok  ';
  const counts = `${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ''}`;
  console.log(`${status} ${row.name.padEnd(22)} ${counts}${row.note ? `  (${row.note})` : ''}`);
}
for (const failure of failures) console.log(`  ✗ ${failure}`);
for (const note of notes) console.log(note);
console.log(`Took ${seconds(started)}`);

const total = suites.reduce(
  (sum, row) => ({
    passed: sum.passed + row.passed,
    failed: sum.failed + row.failed,
    skipped: sum.skipped + row.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
);
process.exitCode = total.failed > 0 ? 1 : 0;
