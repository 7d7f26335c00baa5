import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every installed package accepts each Node line the portal supports (README, decision 015):
 * the oldest release of each line that runs the toolchain. Checked over what this machine
 * installed, since the lock also names other platforms' optional binaries. A dependency whose declared engines
 * leave one out is replaced or pinned (the root package.json's `overrides`).
 */
const supportedLines = ['20.19.0', '22.12.0', '24.0.0'];

const root = new URL('../', import.meta.url);
const lock = JSON.parse(fs.readFileSync(new URL('package-lock.json', root), 'utf8'));
const packages = Object.entries(lock.packages as Record<string, { engines?: unknown }>).filter(
  ([where]) => where !== '' && fs.existsSync(new URL(where, root)),
);

describe('the supported Node lines', () => {
  it.each(supportedLines)('Node %s is within every installed package’s engines', (line) => {
    const refusing = packages
      .filter(([, meta]) => {
        const node = (meta.engines as { node?: string } | undefined)?.node;
        return typeof node === 'string' && !semver.satisfies(line, node);
      })
      .map(([where, meta]) => `${where} (${(meta.engines as { node: string }).node})`);
    expect(refusing).toEqual([]);
  });

  it('the portal itself declares them', () => {
    const own = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8'));
    for (const line of supportedLines) expect(semver.satisfies(line, own.engines.node)).toBe(true);
  });
});
