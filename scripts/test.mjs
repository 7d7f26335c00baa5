#!/usr/bin/env node
// `npm test`: every test suite of the portal, one closing line summing them all.
//
//   1. Vitest: contract and server tests on SQLite (always), then the server tests on PostgreSQL
//      when TEST_PG_URL is set (postgres://postgres@127.0.0.1:5432/postgres; the tests create and
//      drop their own databases).
//   2. `npm run build`, then the landing route's bundle budget (scripts/check-bundle.mjs).
//   3. Playwright end-to-end tests in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
//      against the built server.
//   4. When TEST_NODE_LINES is set: the contract and server tests on SQLite once more under each
//      of those Node lines (see "Other Node lines" below).
//
// Environment:
//   TEST_PG_URL   run the server suite on PostgreSQL too
//   REQUIRE_PG=1  fail when the PostgreSQL suite is skipped or ran no test (CI sets it)
//   REQUIRE_E2E=1 fail when the end-to-end suite is skipped or ran no test (CI sets it)
//   CHROMIUM_PATH the Chromium binary (default /usr/bin/chromium)
//   TEST_NODE_LINES=22,24  also run the contract and server suites on SQLite under these Node
//                 lines, fetched from npm (a major takes its latest release; 22.23.3 names one;
//                 24:24.18.1 compiles better-sqlite3 against 24.18.1's headers)
//   TEST_NODE_CACHE  where those Node builds and their better-sqlite3 builds are kept
//                 (default ~/.cache/doctors-portal/node-lines)
//
// Reports: test-results/vitest.json, test-results/vitest-postgres.json, test-results/e2e.json,
// test-results/vitest-node-<version>.json.
// The last line printed is always `N passed, N failed[, N skipped]`; the exit code is non-zero
// when anything failed.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
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
// A run stopped (SIGKILL) while another Node line's better-sqlite3 was in place: put the
// machine's back before anything loads it (see "Other Node lines").
try {
  restoreMachineBinary(betterSqlite3());
} catch {}

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
async function vitest(name, args, reportFile, env = {}, runner = bin('vitest')) {
  const since = Date.now();
  fs.rmSync(reportFile, { force: true });
  const [command, ...pre] = runner;
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

// ── 4. Other Node lines ──────────────────────────────────────────────────────────────────────
// TEST_NODE_LINES=22,24 runs the contract and server suites on SQLite once more under each of
// those Node lines, so that a newcomer's Node (22 or 24 rather than this machine's) is tested
// too. Each Node comes from npm's node-<platform>-<arch> package (a binary and its headers), kept
// in TEST_NODE_CACHE. better-sqlite3 is compiled for each line in a copy kept beside that Node
// (the lines are compiled side by side, one core each), and its binary takes the place of the
// machine's own only while that line's tests run; the machine's is put back afterwards, also
// when the run is interrupted (or at the next run, after a SIGKILL).
const nodeLines = (process.env.TEST_NODE_LINES ?? '')
  .split(',')
  .map((line) => line.trim())
  .filter(Boolean);
const NODE_CACHE =
  process.env.TEST_NODE_CACHE ||
  path.join(
    process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
    'doctors-portal',
    'node-lines',
  );
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/** better-sqlite3 as the server loads it: its folder, version and compiled binary. */
function betterSqlite3() {
  const requireFromServer = createRequire(path.join(ROOT, 'server', 'package.json'));
  const dir = path.dirname(requireFromServer.resolve('better-sqlite3/package.json'));
  const { version } = readJson(path.join(dir, 'package.json')) ?? {};
  const binary = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  return { dir, version, binary, aside: `${binary}.machine` };
}

/** Puts the machine's better-sqlite3 binary back if another line's is in its place. */
function restoreMachineBinary({ binary, aside }) {
  if (!fs.existsSync(aside)) return;
  fs.rmSync(binary, { force: true });
  fs.renameSync(aside, binary);
}

/** Runs a command with its output collected; resolves to its exit code, stdout and all output. */
function capture(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, ...options });
    let stdout = '';
    let output = '';
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) =>
      resolve({ code: 127, stdout, output: `${output}${error.message}\n` }),
    );
    child.on('exit', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), stdout, output }),
    );
  });
}

const byVersion = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** Node `line` (a major or an exact version) in the cache, fetched from npm when missing. */
async function nodeForLine(line) {
  let version = /^\d+\.\d+\.\d+$/.test(line) ? line : '';
  if (!version) {
    const { code, stdout } = await capture('npm', [
      'view',
      `${NODE_PACKAGE}@${line}`,
      'version',
      '--json',
    ]);
    let found = [];
    try {
      // One version is printed as a string, several as an array.
      if (code === 0) found = [JSON.parse(stdout)].flat();
    } catch {}
    // Offline: the newest release of that line already in the cache.
    if (found.length === 0 && fs.existsSync(NODE_CACHE)) {
      found = fs
        .readdirSync(NODE_CACHE)
        .map((entry) => /^node-(\d+\.\d+\.\d+)$/.exec(entry)?.[1])
        .filter((v) => v?.startsWith(`${line}.`));
    }
    version =
      found
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
        .sort(byVersion)
        .at(-1) ?? '';
    if (!version) throw new Error(`no release of ${NODE_PACKAGE}@${line} found`);
  }
  const dir = path.join(NODE_CACHE, `node-${version}`);
  const node = path.join(dir, 'bin', 'node');
  if (!fs.existsSync(node)) {
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const packed = await capture('npm', [
      'pack',
      `${NODE_PACKAGE}@${version}`,
      '--pack-destination',
      partial,
      '--silent',
    ]);
    const tarball = path.join(partial, `${NODE_PACKAGE}-${version}.tgz`);
    if (packed.code !== 0 || !fs.existsSync(tarball)) {
      throw new Error(`npm pack ${NODE_PACKAGE}@${version} failed: ${firstLine(packed.output)}`);
    }
    const untar = await capture('tar', ['xzf', tarball, '-C', partial, '--strip-components=1']);
    if (untar.code !== 0) throw new Error(`cannot unpack ${tarball}: ${firstLine(untar.output)}`);
    fs.rmSync(tarball);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(partial, dir);
  }
  return { version, dir, node, bin: path.join(dir, 'bin') };
}

/** better-sqlite3 compiled against that Node's headers, in a copy kept in the cache. */
async function betterSqlite3For(target, sqlite) {
  const dir = path.join(NODE_CACHE, `better-sqlite3-${sqlite.version}-node-${target.version}`);
  const binary = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(binary)) return { binary, compiled: false };
  const partial = `${dir}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(sqlite.dir, partial, {
    recursive: true,
    filter: (source) => !/^(build|node_modules)$/.test(path.relative(sqlite.dir, source)),
  });
  // node-gyp through npm, on that Node, with that Node's headers (overriding any `nodedir` of
  // the user's npm configuration, which names the machine's own).
  const { code, output } = await capture('npm', ['run', 'build-release', '--silent'], {
    cwd: partial,
    env: {
      ...process.env,
      PATH: `${target.bin}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: target.dir,
      JOBS: '1',
    },
  });
  if (code !== 0 || !fs.existsSync(path.join(partial, 'build', 'Release', 'better_sqlite3.node'))) {
    fs.writeFileSync(path.join(RESULTS, `better-sqlite3-node-${target.version}.log`), output);
    const last = output.trim().split('\n').slice(-12).join('\n');
    throw new Error(`better-sqlite3 did not compile for Node ${target.version}:\n${last}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(partial, dir);
  return { binary, compiled: true };
}

/** Fetches a line's Node and compiles better-sqlite3 for it; checks that the binary loads. */
/** Each download and build once, however many lines ask for it. */
const once = new Map();
const onceFor = (key, make) => {
  if (!once.has(key)) once.set(key, make());
  return once.get(key);
};

/**
 * Fetches a line's Node and compiles better-sqlite3 for it; checks that the binary loads there.
 * `24:24.18.1` runs the latest 24 with better-sqlite3 compiled against 24.18.1's headers, as a
 * prebuilt binary of it is (same ABI; see docs/decisions/015).
 */
async function prepareLine(entry, sqlite) {
  const [line = '', headersOf] = entry.split(':');
  const since = Date.now();
  const target = await onceFor(`node ${line}`, () => nodeForLine(line));
  const headers = headersOf
    ? await onceFor(`node ${headersOf}`, () => nodeForLine(headersOf))
    : target;
  const fetched = seconds(since);
  const compiledSince = Date.now();
  const build = await onceFor(`better-sqlite3 ${headers.version}`, () =>
    betterSqlite3For(headers, sqlite),
  );
  const loads = await capture(target.node, ['-e', `require(${JSON.stringify(build.binary)})`]);
  if (loads.code !== 0) {
    throw new Error(
      `better-sqlite3 for Node ${target.version} does not load: ${firstLine(loads.output)}`,
    );
  }
  const how = build.compiled
    ? `compiled in ${seconds(compiledSince)}`
    : 'compiled earlier (cached)';
  const against = headers === target ? '' : ` against Node ${headers.version}'s headers`;
  console.log(
    `Node ${target.version} (${entry}): ready in ${fetched}; better-sqlite3${against} ${how}`,
  );
  return { ...target, binary: build.binary, headers: headers.version };
}

if (nodeLines.length > 0) {
  banner(`Other Node lines: ${nodeLines.join(', ')}`);
  fs.mkdirSync(NODE_CACHE, { recursive: true });
  fs.mkdirSync(RESULTS, { recursive: true });
  const sqlite = betterSqlite3();
  restoreMachineBinary(sqlite);
  const prepared = await Promise.allSettled(nodeLines.map((line) => prepareLine(line, sqlite)));
  const vitestScript = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  for (const [index, outcome] of prepared.entries()) {
    if (outcome.status === 'rejected') {
      const message = firstLine(outcome.reason?.message);
      console.log(`Node ${nodeLines[index]}: not run: ${outcome.reason?.message}`);
      suites.push({
        name: `vitest (Node ${nodeLines[index]})`,
        passed: 0,
        failed: 1,
        skipped: 0,
        note: message,
      });
      failures.push(`Node ${nodeLines[index]}: ${message}`);
      continue;
    }
    const target = outcome.value;
    const name = `vitest (Node ${target.version})`;
    const builtWith =
      target.headers === target.version ? '' : `, better-sqlite3 built with ${target.headers}`;
    banner(`Vitest: contract and server on SQLite, Node ${target.version}`);
    // Only while this line's tests run: its binary in place of the machine's.
    fs.renameSync(sqlite.binary, sqlite.aside);
    const restore = () => restoreMachineBinary(sqlite);
    const onSignal = (signal) => {
      restore();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let row;
    try {
      fs.copyFileSync(target.binary, sqlite.binary);
      ({ row } = await vitest(
        name,
        ['--project', 'contract', '--project', 'server-sqlite'],
        path.join(RESULTS, `vitest-node-${target.version}.json`),
        // Processes the tests start (tsx, npm) find this Node first too.
        { PATH: `${target.bin}${path.delimiter}${process.env.PATH}` },
        [target.node, vitestScript],
      ));
    } finally {
      restore();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    console.log(
      `Node ${target.version}: ${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ''}`,
    );
    notes.push(
      `Node ${target.version} suite ran: ${row.passed + row.failed} tests (${row.note}${builtWith})`,
    );
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
