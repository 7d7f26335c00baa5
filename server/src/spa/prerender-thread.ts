import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * What a worker thread runs: the prerender module at `workerData.url`, called with
 * `workerData.input`, and its screens (or its failure) sent back. Plain JavaScript, so that it
 * runs the same from the build and from the sources under test.
 */
const RUN_PRERENDER = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.url)
  .then((module) => module.prerenderPages(workerData.input))
  .then(
    (screens) => parentPort.postMessage({ screens }),
    (error) => parentPort.postMessage({ error }),
  );
`;

/**
 * Calls `prerenderPages(input)` of the module in `file` on a worker thread of its own, which
 * ends once it has answered. React's renderer keeps its requests in an AsyncLocalStorage: run
 * once on the server's own thread, it leaves Node's async hooks on for the life of the process,
 * and every promise of every request then pays for them (10 to 17 % more CPU a request on every
 * route, docs/performance.md).
 */
export function prerenderOnThread<Input, Screen>(file: string, input: Input): Promise<Screen[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(RUN_PRERENDER, {
      eval: true,
      workerData: { url: pathToFileURL(file).href, input },
    });
    worker.once('message', (answer: { screens: Screen[] } | { error: unknown }) => {
      if ('error' in answer) reject(answer.error);
      else resolve(answer.screens);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the prerender thread ended (code ${code})`)));
  });
}
