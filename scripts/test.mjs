#!/usr/bin/env node
// `npm test`: every test suite of the portal, one closing line summing them all.
//
//   1. Vitest: contract, web and server tests on SQLite (always), and the server tests on
//      PostgreSQL when TEST_PG_URL is set (postgres://postgres@127.0.0.1:5432/postgres; the tests
//      create and drop their own databases).
//   2. `npm run build`, then the landing route's bundle budget (scripts/check-bundle.mjs).
//   3. Playwright end-to-end tests in Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH)
//      against the built server.
//   4. When TEST_NODE_LINES is set: the contract and server tests on SQLite once more under each
//      of those Node lines (see "Other Node lines" below).
//
// These are jobs, run TEST_JOBS at a time (default: one a core) in that order as soon as what
// they need is done (the end-to-end tests need the build; a Node line's suites need its Node and
// its better-sqlite3). Vitest runs one test file at a time in a worker of its own (one worker a
// core but one), so one job leaves a core to another. While several jobs run, each one's output
// goes to test-results/logs/<job>.log and is printed, whole, when it ends; with TEST_JOBS=1 it
// is streamed as it comes.
//
// Environment:
//   TEST_PG_URL   run the server suite on PostgreSQL too
//   REQUIRE_PG=1  fail when the PostgreSQL suite is skipped or ran no test (CI sets it)
//   REQUIRE_E2E=1 fail when the end-to-end suite is skipped or ran no test (CI sets it)
//   CHROMIUM_PATH the Chromium binary (default /usr/bin/chromium)
//   TEST_JOBS     how many jobs run at once (default: the machine's cores)
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
const LOGS = path.join(RESULTS, 'logs');
const started = Date.now();

const flag = (name) => ['1', 'true', 'yes'].includes((process.env[name] ?? '').toLowerCase());
const requirePg = flag('REQUIRE_PG');
const requireE2e = flag('REQUIRE_E2E');
const pgUrl = process.env.TEST_PG_URL || '';
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const jobsAtOnce = Math.max(1, Number(process.env.TEST_JOBS) || os.availableParallelism());

/** One row per suite: name, passed, failed, skipped, and a note. */
const suites = [];
const notes = [];
/** Each failed test, named in the summary so that the tail of a CI log says what broke. */
const failures = [];
// An earlier version of this script put another Node line's better-sqlite3 in place of the
// machine's while that line's tests ran; if such a run was killed (SIGKILL), put it back.
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

/**
 * Runs a command with its output streamed to ours (`log` absent) or appended to the file `log`;
 * resolves to its exit code.
 */
function run(command, args, env = {}, log = undefined) {
  return new Promise((resolve) => {
    const out = log ? fs.openSync(log, 'a') : 'inherit';
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: log ? ['ignore', out, out] : 'inherit',
      env: { ...process.env, ...env },
    });
    const done = (code) => {
      if (log) fs.closeSync(out);
      resolve(code);
    };
    child.on('error', (error) => {
      const message = `test: cannot run ${command}: ${error.message}\n`;
      if (log) fs.appendFileSync(log, message);
      else console.error(message.trimEnd());
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
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
async function vitest(name, args, reportFile, env = {}, runner = bin('vitest'), log = undefined) {
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
    log,
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

// ── Jobs ─────────────────────────────────────────────────────────────────────────────────────
/**
 * Runs `jobs` in their order, `limit` at a time, each as soon as the jobs it `needs` have ended.
 * A job is `{ name, title, needs, run(log) }`; `run` gets the file its output goes to, or
 * nothing when it may stream to ours (one job at a time).
 */
async function runJobs(jobs, limit) {
  fs.mkdirSync(LOGS, { recursive: true });
  const ended = new Set();
  const waiting = [...jobs];
  let running = 0;
  await new Promise((resolve) => {
    const pump = () => {
      if (waiting.length === 0 && running === 0) return resolve();
      for (const job of [...waiting]) {
        if (running >= limit) break;
        if (!job.needs.every((name) => ended.has(name))) continue;
        waiting.splice(waiting.indexOf(job), 1);
        running += 1;
        start(job).finally(() => {
          running -= 1;
          ended.add(job.name);
          pump();
        });
      }
    };
    pump();
  });

  async function start(job) {
    const since = Date.now();
    const log = limit > 1 ? path.join(LOGS, `${job.name}.log`) : undefined;
    if (log) {
      fs.rmSync(log, { force: true });
      console.log(`[${seconds(started)}] started: ${job.title}`);
    } else {
      banner(job.title);
    }
    try {
      await job.run(log);
    } catch (error) {
      const message = firstLine(error?.message);
      suites.push({ name: job.name, passed: 0, failed: 1, skipped: 0, note: message });
      failures.push(`${job.name}: ${message}`);
      if (log) fs.appendFileSync(log, `${error?.stack ?? error}\n`);
      else console.log(error?.stack ?? error);
    }
    if (log) {
      banner(`${job.title} (${seconds(since)}; ended at ${seconds(started)})`);
      process.stdout.write(fs.existsSync(log) ? fs.readFileSync(log) : '');
    }
  }
}

/** Writes a line to the job's log, or to our output. */
function say(log, line) {
  if (log) fs.appendFileSync(log, `${line}\n`);
  else console.log(line);
}

const jobs = [];

// ── 1. Unit and API tests ────────────────────────────────────────────────────────────────────
jobs.push({
  name: 'vitest-sqlite',
  title: 'Vitest: contract, web and server on SQLite',
  needs: [],
  run: (log) =>
    vitest(
      'vitest (SQLite)',
      pgUrl ? ['--project', '!server-postgres'] : [],
      path.join(RESULTS, 'vitest.json'),
      {},
      undefined,
      log,
    ),
});

if (pgUrl) {
  jobs.push({
    name: 'vitest-postgres',
    title: 'Vitest: server on PostgreSQL',
    needs: [],
    run: async (log) => {
      const { row } = await vitest(
        'vitest (PostgreSQL)',
        ['--project', 'server-postgres'],
        path.join(RESULTS, 'vitest-postgres.json'),
        {},
        undefined,
        log,
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
    },
  });
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
let built = false;
jobs.push({
  name: 'build',
  title: 'Build (npm run build) and bundle budget (scripts/check-bundle.mjs)',
  needs: [],
  run: async (log) => {
    const since = Date.now();
    const buildCode = await run('npm', ['run', 'build'], {}, log);
    built = buildCode === 0;
    if (!built) {
      suites.push({
        name: 'build',
        passed: 0,
        failed: 1,
        skipped: 0,
        note: `npm run build exited with code ${buildCode}`,
      });
      return;
    }
    say(log, `Built in ${seconds(since)}`);
    const code = await run(process.execPath, [path.join('scripts', 'check-bundle.mjs')], {}, log);
    suites.push({
      name: 'bundle budget',
      passed: code === 0 ? 1 : 0,
      failed: code === 0 ? 0 : 1,
      skipped: 0,
      note: code === 0 ? 'landing route within 150 KB gzip' : 'see check-bundle output above',
    });
  },
});

// ── 3. End-to-end ────────────────────────────────────────────────────────────────────────────
jobs.push({
  name: 'e2e',
  title: 'Playwright end-to-end (Chromium)',
  needs: ['build'],
  run: async (log) => {
    if (!fs.existsSync(chromium)) {
      const message = `Skipped: end-to-end suite (no Chromium at ${chromium}; install Debian's "chromium" package or set CHROMIUM_PATH)`;
      say(log, message);
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
      return;
    }
    if (!built) {
      const message = 'Not run: end-to-end suite (the build failed)';
      say(log, message);
      notes.push(message);
      return;
    }
    const since = Date.now();
    const reportFile = path.join(RESULTS, 'e2e.json');
    fs.rmSync(reportFile, { force: true });
    const [command, ...pre] = bin('playwright');
    const code = await run(
      command,
      [...pre, 'test', '-c', path.join('e2e', 'playwright.config.ts'), '--reporter=list,json'],
      { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_FILE: reportFile },
      log,
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
  },
});

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
// (one core each), and every process of that line's tests loads that binary
// (scripts/lib/better-sqlite3-binary.cjs, preloaded through NODE_OPTIONS): node_modules stays
// as it is, so the lines run beside the other jobs. Only what differs from one Node to another
// runs again: the contract and the server on SQLite, not the web app (its tests run in a
// simulated DOM, as the browser runs the built app), nor the server's database-free unit tests,
// nor PostgreSQL (the driver is plain JavaScript), nor the build and the end-to-end tests.
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

/** Puts the machine's better-sqlite3 binary back if an earlier run left another in its place. */
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
  const ready = `Node ${target.version} (${entry}): ready in ${fetched}; better-sqlite3${against} ${how}`;
  return { ...target, binary: build.binary, headers: headers.version, ready };
}

const vitestScript = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const binaryHook = path.join(ROOT, 'scripts', 'lib', 'better-sqlite3-binary.cjs');
if (nodeLines.length > 0) fs.mkdirSync(NODE_CACHE, { recursive: true });
for (const entry of nodeLines) {
  /** The line's Node and better-sqlite3, once the job 'prepare <entry>' has them. */
  let prepared;
  jobs.push({
    name: `prepare-node-${entry.replace(/[^\w.-]/g, '_')}`,
    title: `Node ${entry}: fetch it and compile better-sqlite3 for it`,
    needs: [],
    run: async (log) => {
      prepared = await prepareLine(entry, betterSqlite3());
      say(log, prepared.ready);
    },
  });
  jobs.push({
    name: `vitest-node-${entry.replace(/[^\w.-]/g, '_')}`,
    title: `Vitest: contract and server on SQLite, Node ${entry}`,
    needs: [`prepare-node-${entry.replace(/[^\w.-]/g, '_')}`],
    run: async (log) => {
      // Its preparation failed, and was counted as a failure.
      if (!prepared) return say(log, `Node ${entry}: not run (see its preparation)`);
      const target = prepared;
      const name = `vitest (Node ${target.version})`;
      const builtWith =
        target.headers === target.version ? '' : `, better-sqlite3 built with ${target.headers}`;
      const { row } = await vitest(
        name,
        ['--project', 'contract', '--project', 'server-sqlite'],
        path.join(RESULTS, `vitest-node-${target.version}.json`),
        {
          // Processes the tests start (tsx, npm) find this Node first too, and load its binary.
          PATH: `${target.bin}${path.delimiter}${process.env.PATH}`,
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${binaryHook}`.trim(),
          TEST_BETTER_SQLITE3_BINARY: target.binary,
        },
        [target.node, vitestScript],
        log,
      );
      say(
        log,
        `Node ${target.version}: ${row.passed} passed, ${row.failed} failed${row.skipped ? `, ${row.skipped} skipped` : ''}`,
      );
      notes.push(
        `Node ${target.version} suite ran: ${row.passed + row.failed} tests (${row.note}${builtWith})`,
      );
    },
  });
}

// The build first (the end-to-end tests wait for it, and it is short), then the longest suites;
// a Node line's preparation (a compilation on one core, or nothing once cached) fills a core
// after them.
const first = ['build', 'vitest-sqlite', 'vitest-postgres', 'e2e'];
const rank = (job) => (first.includes(job.name) ? first.indexOf(job.name) : first.length);
await runJobs(
  jobs.toSorted((a, b) => rank(a) - rank(b)),
  jobsAtOnce,
);

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
