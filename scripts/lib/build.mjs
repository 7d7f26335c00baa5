// The production build's freshness, shared by `npm start`, `npm run bench` and `npm run lighthouse`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const OUTPUTS = ['server/dist/main.js', 'contract/dist/index.js', 'web/dist/index.html'];
const SOURCES = [
  'contract/src',
  'server/src',
  'web/src',
  'web/public',
  'web/index.html',
  'scripts/page-styles.mjs',
  'package-lock.json',
];

/** The newest modification time under a file or folder (0 when missing). */
function newest(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(target).map((name) => newest(path.join(target, name))));
}

/**
 * Runs `npm run build` when the build is missing or older than its sources. With
 * `require: true` it refuses instead of building.
 */
export function ensureBuild({
  require = false,
  log = (line) => process.stdout.write(`${line}\n`),
} = {}) {
  const built = Math.min(
    ...OUTPUTS.map(
      (file) => fs.statSync(path.join(ROOT, file), { throwIfNoEntry: false })?.mtimeMs ?? 0,
    ),
  );
  const changed = Math.max(...SOURCES.map((source) => newest(path.join(ROOT, source))));
  if (built >= changed) return;
  if (require) {
    throw new Error('the build is missing or older than the sources: run "npm run build" first');
  }
  log(built === 0 ? 'Building the portal…' : 'The build is older than the sources: rebuilding…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build exited with code ${build.status}`);
}
