// The ceiling of `npm run bench`: a bare Fastify 5 app (the portal's own fastify package, no
// plugins, no logger, no database) answering one small JSON route. It runs as its own process
// beside the portal, on the same machine in the same run, so the portal's routes are measured
// as a share of what Fastify itself can do here.
//
//   node bench/bare-server.mjs <port>
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The same fastify the server workspace uses.
const require = createRequire(path.join(root, 'server', 'package.json'));
const Fastify = require('fastify');

const port = Number(process.argv[2]);
const app = Fastify({ logger: false });
app.get('/bare', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port });
process.send?.('ready');
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
