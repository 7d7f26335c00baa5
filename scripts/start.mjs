#!/usr/bin/env node
// `npm start`: builds the portal when the build is missing or older than its sources, then runs
// the built server in production mode. A start with a current build takes about a second, so a
// bad setting is reported at once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outputs = ['server/dist/main.js', 'contract/dist/index.js', 'web/dist/index.html'].map(
  (file) => path.join(root, file),
);
const sources = [
  'contract/src',
  'server/src',
  'web/src',
  'web/public',
  'web/index.html',
  'package-lock.json',
];

/** The newest modification time under a file or folder. */
function newest(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
}

const built = Math.min(
  ...outputs.map((file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0),
);
if (built < Math.max(...sources.map((source) => newest(path.join(root, source))))) {
  console.log('doctors-portal: building…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

process.env.NODE_ENV ??= 'production';
await import(pathToFileURL(path.join(root, 'server', 'dist', 'main.js')).href);
