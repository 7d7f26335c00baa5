import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every answer's request id (`x-request-id`, as in the log), and `no-store` for API answers,
 * which carry patients' data more often than not: none is kept by a browser or a shared cache
 * unless its route says otherwise (the clinic's public facts do), by setting its own
 * Cache-Control over this one. Set on arrival, by a synchronous hook: an `onSend` hook to do the
 * same cost every request a promise and a pass at the end (docs/performance.md, the floor).
 */
export function setResponseHeaders(request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  const url = request.url;
  if (url.startsWith('/api/') && !url.startsWith('/api/docs')) {
    reply.header('cache-control', 'no-store');
  }
}

export const responseHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      setResponseHeaders(request, reply);
      done();
    });
  },
  { name: 'response-headers' },
);
