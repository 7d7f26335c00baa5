#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile preset, simulated throttling) on the landing page of
// the production build, in Debian's Chromium.
//
//   1. builds the portal when the build is missing or older than its sources;
//   2. starts server/dist/main.js on a free loopback port with a throw-away DATA_DIR;
//   3. runs Lighthouse 12 on `/` (performance, accessibility, best practices, SEO), `--runs` times
//      (default 3) and keeps the run with the median performance score;
//   4. prints the four scores and the main metrics, writes the reports to
//      test-results/lighthouse/, and exits non-zero when a score is under its budget:
//      performance 95, accessibility 100, best practices 95, SEO 95.
//
// Options: --runs=N, --path=/about (another page), --chrome=/path/to/chromium (or CHROMIUM_PATH).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, ROOT, startPortal, tempDir } from '../bench/lib/portal.mjs';
import { ensureBuild } from './lib/build.mjs';

const arg = (name, fallback) =>
  process.argv.find((value) => value.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

const runs = Math.max(1, Number(arg('runs', '3')));
const pagePath = arg('path', '/');
const chrome = arg('chrome', process.env.CHROMIUM_PATH || '/usr/bin/chromium');
const BUDGETS = { performance: 95, accessibility: 100, 'best-practices': 95, seo: 95 };
// The flags this machine's Chromium needs, shared with the end-to-end tests.
const CHROME_FLAGS = [
  '--headless=new',
  ...JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', 'chromium-flags.json'), 'utf8')),
];
const OUT = path.join(ROOT, 'test-results', 'lighthouse');

if (!fs.existsSync(chrome)) {
  console.error(`lighthouse: no Chromium at ${chrome} (apt-get install chromium, or --chrome=)`);
  process.exit(1);
}

/** One Lighthouse run through its CLI; resolves to the parsed JSON report (the LHR). */
function lighthouse(url, output) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(ROOT, 'node_modules', '.bin', 'lighthouse'),
      [
        url,
        `--chrome-path=${chrome}`,
        `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
        '--only-categories=performance,accessibility,best-practices,seo',
        '--output=json',
        '--output=html',
        `--output-path=${output}`,
        '--quiet',
      ],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lighthouse exited with code ${code}`));
      resolve(JSON.parse(fs.readFileSync(`${output}.report.json`, 'utf8')));
    });
  });
}

const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const metric = (lhr, id) => lhr.audits[id]?.displayValue ?? 'n/a';

ensureBuild();
fs.mkdirSync(OUT, { recursive: true });
const dataDir = tempDir('lighthouse');
const portal = await startPortal({ port: await freePort(), dataDir });
const reports = [];
try {
  const url = new URL(pagePath, portal.url).href;
  // One request first, so the server's first-request work is not part of what is measured.
  await fetch(url);
  for (let run = 1; run <= runs; run += 1) {
    console.log(`Lighthouse ${run}/${runs}: ${url} (mobile, simulated throttling)`);
    const file = path.join(OUT, `run-${run}`);
    // Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is tried again once.
    const lhr = await lighthouse(url, file).catch((error) => {
      console.log(`  ${error.message}; trying this run again`);
      return lighthouse(url, file);
    });
    reports.push({ lhr, file });
    console.log(
      `  performance ${score(lhr, 'performance')}, accessibility ${score(lhr, 'accessibility')}, ` +
        `best practices ${score(lhr, 'best-practices')}, SEO ${score(lhr, 'seo')} ` +
        `(TBT ${metric(lhr, 'total-blocking-time')}, LCP ${metric(lhr, 'largest-contentful-paint')})`,
    );
  }
} finally {
  await portal.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

reports.sort((a, b) => score(a.lhr, 'performance') - score(b.lhr, 'performance'));
const { lhr, file } = reports[Math.floor((reports.length - 1) / 2)];
console.log('');
console.log(`Lighthouse ${lhr.lighthouseVersion}, ${lhr.environment?.hostUserAgent ?? ''}`);
console.log(
  `${pagePath} on a ${lhr.configSettings.formFactor} device${runs > 1 ? ` (median of ${runs} runs by performance)` : ''}:`,
);
let failed = false;
for (const [id, budget] of Object.entries(BUDGETS)) {
  const value = score(lhr, id);
  const ok = value >= budget;
  failed ||= !ok;
  console.log(
    `  ${ok ? 'ok  ' : 'FAIL'} ${lhr.categories[id].title.padEnd(15)} ${String(value).padStart(3)}  (budget ${budget})`,
  );
}
console.log(
  `  FCP ${metric(lhr, 'first-contentful-paint')} · LCP ${metric(lhr, 'largest-contentful-paint')} · ` +
    `TBT ${metric(lhr, 'total-blocking-time')} · CLS ${metric(lhr, 'cumulative-layout-shift')} · ` +
    `SI ${metric(lhr, 'speed-index')}`,
);
if (failed) {
  // Name what cost points, so the failure says what to fix.
  for (const id of Object.keys(BUDGETS)) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
        console.log(`  ${id}: ${audit.title} (${audit.displayValue ?? `score ${audit.score}`})`);
      }
    }
  }
}
console.log(`Report: ${path.relative(ROOT, file)}.report.html`);
process.exitCode = failed ? 1 : 0;
