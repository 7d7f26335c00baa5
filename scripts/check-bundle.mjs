#!/usr/bin/env node
// Bundle budget of the landing route, read from Vite's build manifest (run `npm run build` first).
//
// The landing route's initial JavaScript is the entry chunk, every chunk the page preloads
// (`<link rel="modulepreload">` in web/dist/index.html) and every chunk those import statically,
// transitively; other lazy `import()`s are not part of it. Each file is gzipped with node:zlib and the
// sizes are summed. Fails when the sum is above the budget, or when a dashboard, admin or payment
// module is part of the initial set instead of a lazily loaded chunk of its own.
//
// Usage: node scripts/check-bundle.mjs [--budget-kb=150]
// Exit code 0 when within budget, 1 otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'web', 'dist');
const MANIFEST = path.join(DIST, '.vite', 'manifest.json');
const ROUTER = path.join(ROOT, 'web', 'src', 'app', 'router.tsx');

const budgetArg = process.argv.find((arg) => arg.startsWith('--budget-kb='));
const BUDGET_KB = budgetArg ? Number(budgetArg.split('=')[1]) : 150;
const BUDGET = BUDGET_KB * 1024;

/** Source modules that must never be in the landing route's initial JavaScript. */
const LAZY_ONLY = /^src\/(routes\/dashboard|features\/(dashboard|admin|payment))\//;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const problems = [];

function fail(message) {
  console.error(`check-bundle: ${message}`);
  process.exit(1);
}

if (!fs.existsSync(MANIFEST)) {
  fail(
    `no Vite manifest at ${path.relative(ROOT, MANIFEST)}: run "npm run build" first ` +
      '(web/vite.config.ts needs build.manifest: true)',
  );
}
const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8'));

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
const entryKey =
  entries.find(([key]) => key === 'index.html')?.[0] ??
  (entries.length === 1 ? entries[0][0] : undefined);
if (!entryKey) {
  fail(`cannot tell the app's entry chunk among ${entries.length} entries in the manifest`);
}

// The entry, the chunks the page preloads, and their static imports, transitively.
const page = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
const preloaded = [...page.matchAll(/<link rel="modulepreload"[^>]*href="\/([^"]+)"/g)].map(
  (match) => Object.keys(manifest).find((key) => manifest[key].file === match[1]) ?? match[1],
);
const initial = new Set();
const queue = [entryKey, ...preloaded];
while (queue.length > 0) {
  const key = queue.shift();
  if (initial.has(key)) continue;
  const chunk = manifest[key];
  if (!chunk) {
    problems.push(`manifest names a chunk "${key}" that it does not describe`);
    continue;
  }
  initial.add(key);
  queue.push(...(chunk.imports ?? []));
}

const initialFiles = new Map(); // file -> gzip bytes
for (const key of initial) {
  const file = manifest[key].file;
  if (!file.endsWith('.js') || initialFiles.has(file)) continue;
  const filePath = path.join(DIST, file);
  if (!fs.existsSync(filePath)) {
    problems.push(`${file} is in the manifest but not in web/dist`);
    continue;
  }
  const raw = fs.readFileSync(filePath);
  initialFiles.set(file, { raw: raw.length, gzip: gzipSync(raw).length });
}
const total = [...initialFiles.values()].reduce((sum, size) => sum + size.gzip, 0);
const totalRaw = [...initialFiles.values()].reduce((sum, size) => sum + size.raw, 0);

// Which chunk files does the initial set load? A lazy module must have its own chunk outside it.
const initialChunkFiles = new Set([...initial].map((key) => manifest[key].file));

// Route modules the router loads lazily under /dashboard (payment and admin screens included).
const lazyRoutes = new Set();
if (fs.existsSync(ROUTER)) {
  const source = fs.readFileSync(ROUTER, 'utf8');
  for (const match of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const resolved = path.posix.join('src/app', match[1]);
    if (LAZY_ONLY.test(`${resolved}/`) || LAZY_ONLY.test(resolved)) lazyRoutes.add(resolved);
  }
}
if (lazyRoutes.size === 0) {
  problems.push(
    'found no lazy import() of a dashboard route in web/src/app/router.tsx: ' +
      'dashboard, admin and payment screens must be loaded lazily',
  );
}
const manifestKeyFor = (modulePath) =>
  Object.keys(manifest).find(
    (key) => key === modulePath || key.replace(/\.(tsx?|jsx?|mjs)$/, '') === modulePath,
  );
for (const modulePath of lazyRoutes) {
  const key = manifestKeyFor(modulePath);
  if (!key) {
    problems.push(`${modulePath} has no chunk of its own (is it imported statically somewhere?)`);
  } else if (!manifest[key].isDynamicEntry) {
    problems.push(`${key} is not a lazily loaded chunk`);
  } else if (initial.has(key) || initialChunkFiles.has(manifest[key].file)) {
    problems.push(`${key} is part of the landing route's initial JavaScript`);
  }
}
for (const key of initial) {
  const src = manifest[key].src ?? key;
  if (LAZY_ONLY.test(src))
    problems.push(`${src} is part of the landing route's initial JavaScript`);
}

console.log(
  `Landing route initial JavaScript (${entryKey}, the chunks its page preloads, their static imports):`,
);
for (const [file, size] of [...initialFiles].sort((a, b) => b[1].gzip - a[1].gzip)) {
  console.log(
    `  ${file.padEnd(40)} ${kb(size.raw).padStart(10)}  gzip ${kb(size.gzip).padStart(9)}`,
  );
}
const cssFiles = [...new Set([...initial].flatMap((key) => manifest[key].css ?? []))];
const cssGzip = cssFiles.reduce(
  (sum, file) =>
    sum +
    (fs.existsSync(path.join(DIST, file))
      ? gzipSync(fs.readFileSync(path.join(DIST, file))).length
      : 0),
  0,
);
console.log(
  `  total ${kb(totalRaw)}, gzip ${kb(total)} of a ${BUDGET_KB} KB budget` +
    (cssFiles.length ? ` (plus CSS: ${kb(cssGzip)} gzip, not counted)` : ''),
);
console.log(
  `  lazily loaded, outside the initial set: ${[...lazyRoutes].map((m) => path.posix.basename(m)).join(', ') || 'none'}`,
);

if (total > BUDGET) {
  problems.push(`initial JavaScript is ${kb(total)} gzip, above the ${BUDGET_KB} KB budget`);
}
if (initialFiles.size === 0) problems.push('the initial set holds no JavaScript file');

if (problems.length > 0) {
  for (const problem of problems) console.error(`check-bundle: FAIL: ${problem}`);
  process.exit(1);
}
console.log(`check-bundle: OK: ${kb(total)} gzip <= ${BUDGET_KB} KB`);
