import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layers (docs/architecture.md): a feature never imports another feature, and the
 * shared code (components/, api/, lib/) imports no feature. What two features share moves to
 * components/, api/ or lib/. Only app/ and routes/ compose features.
 */
const src = dirname(fileURLToPath(import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** The relative modules a file names: imports, re-exports, import() and vi.mock(). */
function relativeImportsOf(code: string): string[] {
  const pattern = /(?:\bfrom|\bimport|\bimport\s*\(|\bvi\.mock\s*\()\s*['"](\.{1,2}\/[^'"]*)['"]/g;
  return [...code.matchAll(pattern)].map((match) => match[1] as string);
}

/** The feature a path lies in ('booking' for src/features/booking/…), or null outside them. */
function featureOf(path: string): string | null {
  const [top, feature] = relative(src, path).split(sep);
  return top === 'features' && feature ? feature : null;
}

/** Every import of `files` that reaches into a feature other than the importing file's own. */
function crossings(files: string[]): string[] {
  return files.flatMap((file) => {
    const own = featureOf(file);
    return relativeImportsOf(readFileSync(file, 'utf8'))
      .filter((specifier) => {
        const target = featureOf(resolve(dirname(file), specifier));
        return target !== null && target !== own;
      })
      .map((specifier) => `${relative(src, file)} imports '${specifier}'`);
  });
}

describe("the web app's layers", () => {
  it('reads the imports of a file', () => {
    const code = [
      "import { a } from '../../admin/components/a';",
      "import type { B } from './b';",
      "export { c } from '../c';",
      "import './d.css';",
      "const e = lazy(() => import('../e'));",
      "vi.mock('../../f', () => ({}));",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImportsOf(code)).toEqual([
      '../../admin/components/a',
      './b',
      '../c',
      './d.css',
      '../e',
      '../../f',
    ]);
  });

  it('keeps every feature to itself and the shared code', () => {
    expect(crossings(sourcesUnder(join(src, 'features')))).toEqual([]);
  });

  it('keeps the shared code free of features', () => {
    const shared = ['components', 'api', 'lib', 'test'].flatMap((dir) =>
      sourcesUnder(join(src, dir)),
    );
    expect(crossings(shared)).toEqual([]);
  });
});
