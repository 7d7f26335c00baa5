import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { prerenderOnThread } from './prerender-thread.js';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-prerender-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function moduleFile(name: string, source: string): string {
  const file = path.join(folder, name);
  fs.writeFileSync(file, source);
  return file;
}

describe('prerenderOnThread', () => {
  it('renders on a thread of its own, with the clinic it is given', async () => {
    const file = moduleFile(
      'drawn.js',
      `import { threadId } from 'node:worker_threads';
       export async function prerenderPages(clinic) {
         return [{ path: '/about', title: clinic.name, html: '<p>' + clinic.phone + '</p>', threadId }];
       }`,
    );
    const screens = await prerenderOnThread<object, { threadId: number }>(file, {
      name: 'Smile Dental',
      phone: '+1 555 0100',
    });
    expect(screens).toEqual([
      {
        path: '/about',
        title: 'Smile Dental',
        html: '<p>+1 555 0100</p>',
        threadId: expect.any(Number),
      },
    ]);
    expect(screens[0]?.threadId).not.toBe(threadId);
  });

  it("rejects with the module's own error", async () => {
    const file = moduleFile(
      'failing.js',
      "export async function prerenderPages() { throw new Error('no document'); }",
    );
    await expect(prerenderOnThread(file, {})).rejects.toThrow('no document');
  });

  it('rejects when the module cannot be loaded', async () => {
    await expect(prerenderOnThread(path.join(folder, 'missing.js'), {})).rejects.toThrow();
  });
});
