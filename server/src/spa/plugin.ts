import path from 'node:path';
import { isClientRoute } from '@doctors-portal/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { clinicDetails } from '../clinic/details.js';
import { errorBody, handleError } from '../http/errors.js';
import { buildPages, type Page, type Pages } from './pages.js';

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
  const pages = await buildPages(root, clinicDetails(app.config), app.log);
  if (pages) {
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
        // The build's dot folders (Vite's manifest, the prerender module) are not the site's.
        dotfiles: 'ignore',
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
  const sendPage = pages ? pageSender(pages) : null;
  if (sendPage) {
    // The static handler would refuse the root as a directory listing, and would send
    // /index.html as the build wrote it, without the clinic's details.
    app.get('/', { schema: { hide: true } }, (request, reply) => sendPage(request, reply, '/'));
    app.get(PAGE_PATH, { schema: { hide: true } }, (request, reply) =>
      sendPage(request, reply, PAGE_PATH, 200),
    );
    // Nor the compressed copies the build wrote beside it: they are no page of the app.
    for (const copy of [`${PAGE_PATH}.br`, `${PAGE_PATH}.gz`]) {
      app.get(copy, { schema: { hide: true } }, (request, reply) => sendPage(request, reply, copy));
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
    if (sendPage && isPage) return sendPage(request, reply, pathname);
    return reply.code(404).send(errorBody(404, `Nothing at ${request.method} ${pathname}`));
  });
}

/**
 * Answers a page request with the app's page: a prerendered screen for its bare address (what a
 * query asks for is the app's to draw), or the shell; 404 for a path that is no client route, so
 * the app shows its not-found screen. Each as the copy compressed the way the client accepts.
 */
function pageSender(pages: Pages) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
    status = isClientRoute(pathname) ? 200 : 404,
  ) => {
    const page =
      (request.url.includes('?') ? undefined : pages.screens.get(pathname)) ?? pages.shell;
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    const policy = reply.getHeader('content-security-policy');
    if (page.inline && typeof policy === 'string') {
      reply.header('content-security-policy', admitting(policy, page.inline));
    }
    if (encoding === 'identity') return reply.send(page.html);
    return reply.header('content-encoding', encoding).send(page[encoding]);
  };
}

/** The content security policy with a page's own inline script and style admitted. */
function admitting(policy: string, inline: NonNullable<Page['inline']>): string {
  return policy
    .replace(/(^|;)script-src ([^;]*)/, `$1script-src $2 ${inline.script}`)
    .replace(/(^|;)style-src ([^;]*)/, `$1style-src $2 ${inline.style}`);
}

/** Where the build's page is, beside the assets. */
const PAGE_PATH = '/index.html';

/** The best of the page's copies the client accepts: Brotli, then gzip, else as it is. */
function preferredEncoding(header: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  return accepted.has('gzip') ? 'gzip' : 'identity';
}
