import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { childEnv } from '../../test/child-env.js';
import { AccessLog } from './access-log.js';
import { logDestination } from './logger.js';

const files: string[] = [];
afterEach(() => {
  for (const file of files.splice(0)) fs.rmSync(path.dirname(file), { recursive: true });
});

function logFile() {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'log-')), 'portal.log');
  files.push(file);
  return { file, fd: fs.openSync(file, 'w') };
}

describe('the log destination', () => {
  it('writes every line in order, byte for byte, in any script, while writes are under way', async () => {
    const { file, fd } = logFile();
    const destination = logDestination(fd);
    // Far more than one write's worth, given at once: most are gathered while one is under way.
    const lines = Array.from({ length: 5_000 }, (_, index) =>
      index % 3 === 0 ? `{"msg":"Zoë Ångström 歯科 ${index}"}\n` : `{"msg":"line ${index}"}\n`,
    );
    for (const line of lines) destination.write(line);
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it("carries the portal's access line as the access log writes it", async () => {
    const { file, fd } = logFile();
    const destination = logDestination(fd);
    const app = Fastify({
      logger: { level: 'info', stream: destination },
      logController: new AccessLog(),
    });
    app.get('/api/ok', async () => ({ ok: true }));
    await app.inject('/api/ok?name=Zo%C3%AB');
    await app.close();
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toMatch(/\n$/);
    const [line, ...rest] = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(JSON.parse(line ?? '')).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/api/ok?name=Zo%C3%AB' },
      res: { statusCode: 200 },
    });
  });

  it('loses no line when the process exits at once after writing it', () => {
    const logger = fileURLToPath(new URL('./logger.ts', import.meta.url));
    const program = [
      `const { logDestination } = await import(${JSON.stringify(logger)});`,
      'const destination = logDestination();',
      "for (let i = 0; i < 2000; i += 1) destination.write('{\"line\":' + i + '}\\n');",
      'process.exit(0);',
    ].join('\n');
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', program],
      { env: childEnv(), encoding: 'utf8' },
    );
    const lines = output.trimEnd().split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines.at(-1)).toBe('{"line":1999}');
  });
});
