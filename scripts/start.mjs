#!/usr/bin/env node
// `npm start`: builds the portal when the build is missing or older than its sources, then runs
// the built server in production mode. A start with a current build takes about a second, so a
// bad setting is reported at once.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './lib/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

try {
  ensureBuild({ log: (line) => console.log(`doctors-portal: ${line}`) });
} catch (error) {
  console.error(`doctors-portal: cannot start: ${error.message}`);
  process.exit(1);
}

process.env.NODE_ENV ??= 'production';
await import(pathToFileURL(path.join(root, 'server', 'dist', 'main.js')).href);
