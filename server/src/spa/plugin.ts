import fs from 'node:fs';
import path from 'node:path';
import { type Clinic, isClientRoute } from '@doctors-portal/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { clinicDetails } from '../clinic/details.js';
import { errorBody, handleError } from '../http/errors.js';

/**
 * Serves the built web app: hashed assets cached for a year, sent as the Brotli or gzip copy
 * the build wrote beside each one when the browser accepts it (nothing is compressed per
 * request), and the app's page for every client route (200), `/index.html` included, or any
 * other page path (404, shown by the app's not-found screen). Unknown paths under /api/ and
 * /uploads/ answer 404 JSON. Without a build (development runs Vite's server instead) every
 * other path does.
 *
 * The page carries the clinic's details (they come from the configuration and never change while
 * the server runs): the first render of every screen has them, with no request and no second
 * render when they arrive (docs/performance.md).
 */
export const webAppPlugin = fp(
  async (app: FastifyInstance, options: { root: string }) => serveWebApp(app, options.root),
  // Last: its not-found handler answers every path nothing else took.
  { name: 'web-app', dependencies: ['config'] },
);

async function serveWebApp(app: FastifyInstance, root: string): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  const page = fs.existsSync(indexFile)
    ? withClinic(fs.readFileSync(indexFile, 'utf8'), clinicDetails(app.config))
    : null;
  if (page) {
    const assets = path.join(root, 'assets') + path.sep;
    await app.register(async (files) => {
      // The file handler refuses with a 403 what it will not serve: a path it does not take as
      // written ('//x', 'a\\b') or a folder. To a client there is simply nothing there.
      files.setErrorHandler<FastifyError>((error, request, reply) =>
        error.statusCode === 403 ? reply.callNotFound() : handleError(error, request, reply),
      );
      await files.register(fastifyStatic, {
        root,
        index: false,
        preCompressed: true,
        setHeaders(reply, filePath) {
          const immutable = filePath.startsWith(assets);
          reply.header(
            'cache-control',
            immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
          );
        },
      });
    });
  } else {
    app.log.warn(`No web build at ${root}: run "npm run build" to serve the portal's pages`);
  }
  const sendPage = (pathname: string, reply: FastifyReply) =>
    reply
      .code(isClientRoute(pathname) ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(page);
  if (page) {
    // The static handler would refuse the root as a directory listing, and would send
    // /index.html as the build wrote it, without the clinic's details.
    app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage('/', reply));
    app.get(PAGE_PATH, { schema: { hide: true } }, (_request, reply) => sendPage('/', reply));
    // Nor the compressed copies the build wrote beside it: they are no page of the app.
    for (const copy of [`${PAGE_PATH}.br`, `${PAGE_PATH}.gz`]) {
      app.get(copy, { schema: { hide: true } }, (_request, reply) => sendPage(copy, reply));
    }
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/';
    // Unknown API and image paths stay JSON even though the static handler catches every GET
    // first.
    const isPage =
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/uploads/') &&
      (request.method === 'GET' || request.method === 'HEAD');
    if (page && isPage) return sendPage(pathname, reply);
    return reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${pathname}`));
  });
}

/** Where the build's page is, beside the assets. */
const PAGE_PATH = '/index.html';

/** The page with the clinic's details as JSON in a script element the app reads (never runs). */
function withClinic(page: string, clinic: Clinic): string {
  // `<` escaped: no value can close the script element early.
  const json = JSON.stringify(clinic).replace(/</g, '\\u003c');
  return page.replace(
    '</head>',
    `<script type="application/json" id="clinic-data">${json}</script></head>`,
  );
}
