#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse (mobile preset, simulated throttling) on the public pages of
// the production build, in Debian's Chromium.
//
//   1. builds the portal when the build is missing or older than its sources;
//   2. starts server/dist/main.js on a free loopback port with a throw-away DATA_DIR;
//   3. runs Lighthouse 12 (performance, accessibility, best practices, SEO) `--runs` times
//      (default 5) on each of `/`, `/about` and `/login`;
//   4. prints each run, then each page's medians, writes the reports to test-results/lighthouse/,
//      and exits non-zero when a median misses its target (issue 18): every score 100, LCP at
//      most 1.2 s, CLS 0.
//
// Options: --runs=N, --path=/about (that page only), --chrome=/path/to/chromium (or CHROMIUM_PATH).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, ROOT, startPortal, tempDir } from '../bench/lib/portal.mjs';
import { ensureBuild } from './lib/build.mjs';

const arg = (name, fallback) =>
  process.argv.find((value) => value.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

const runs = Math.max(1, Number(arg('runs', '5')));
const pagePaths = arg('path') ? [arg('path')] : ['/', '/about', '/login'];
const chrome = arg('chrome', process.env.CHROMIUM_PATH || '/usr/bin/chromium');
const BUDGETS = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
const LCP_BUDGET_MS = 1200;
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

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor((values.length - 1) / 2)];

ensureBuild();
fs.mkdirSync(OUT, { recursive: true });
const dataDir = tempDir('lighthouse');
const portal = await startPortal({ port: await freePort(), dataDir });
const results = new Map(); // page path -> LHRs
try {
  for (const pagePath of pagePaths) {
    const url = new URL(pagePath, portal.url).href;
    // One request first, so the server's first-request work is not part of what is measured.
    await fetch(url);
    const reports = [];
    for (let run = 1; run <= runs; run += 1) {
      console.log(`Lighthouse ${run}/${runs}: ${url} (mobile, simulated throttling)`);
      const file = path.join(
        OUT,
        `${pagePath === '/' ? 'home' : pagePath.slice(1).replace(/\W+/g, '-')}-run-${run}`,
      );
      // Lighthouse now and then fails to record a trace (NO_NAVSTART): such a run is tried again once.
      const lhr = await lighthouse(url, file).catch((error) => {
        console.log(`  ${error.message}; trying this run again`);
        return lighthouse(url, file);
      });
      reports.push(lhr);
      console.log(
        `  performance ${score(lhr, 'performance')}, accessibility ${score(lhr, 'accessibility')}, ` +
          `best practices ${score(lhr, 'best-practices')}, SEO ${score(lhr, 'seo')} ` +
          `(FCP ${metric(lhr, 'first-contentful-paint')}, LCP ${metric(lhr, 'largest-contentful-paint')}, ` +
          `TBT ${metric(lhr, 'total-blocking-time')}, CLS ${metric(lhr, 'cumulative-layout-shift')})`,
      );
    }
    results.set(pagePath, reports);
  }
} finally {
  await portal.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

let failed = false;
const first = [...results.values()][0][0];
console.log('');
console.log(`Lighthouse ${first.lighthouseVersion}, ${first.environment?.hostUserAgent ?? ''}`);
for (const [pagePath, reports] of results) {
  console.log(
    `${pagePath} on a ${first.configSettings.formFactor} device (median of ${reports.length}):`,
  );
  const checks = [
    ...Object.entries(BUDGETS).map(([id, budget]) => {
      const value = median(reports.map((lhr) => score(lhr, id)));
      return [first.categories[id].title, String(value), `target ${budget}`, value >= budget];
    }),
    (() => {
      const value = median(
        reports.map((lhr) => lhr.audits['largest-contentful-paint'].numericValue),
      );
      return [
        'LCP',
        `${(value / 1000).toFixed(1)} s`,
        `target ≤ ${LCP_BUDGET_MS / 1000} s`,
        value <= LCP_BUDGET_MS,
      ];
    })(),
    (() => {
      const value = median(
        reports.map((lhr) => lhr.audits['cumulative-layout-shift'].numericValue),
      );
      return ['CLS', String(Number(value.toFixed(3))), 'target 0', value === 0];
    })(),
  ];
  for (const [label, value, target, ok] of checks) {
    failed ||= !ok;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label.padEnd(15)} ${value.padStart(6)}  (${target})`);
  }
  // Name what cost points in any run, so a miss says what to fix.
  const costs = new Set();
  for (const lhr of reports) {
    for (const id of Object.keys(BUDGETS)) {
      for (const ref of lhr.categories[id].auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
          costs.add(`${id}: ${audit.title} (${audit.displayValue ?? `score ${audit.score}`})`);
        }
      }
    }
  }
  for (const cost of costs) console.log(`  ${cost}`);
}
console.log(`Reports: ${path.relative(ROOT, OUT)}/`);
process.exitCode = failed ? 1 : 0;
