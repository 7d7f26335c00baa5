import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * `onSend` for every answer: its request id (`x-request-id`, as in the log), and `no-store` for
 * API answers, which carry patients' data more often than not: none is kept by a browser or a
 * shared cache unless its route says it may be (the clinic's public facts do).
 */
export const responseHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply) => {
      reply.header('x-request-id', request.id);
      if (
        request.url.startsWith('/api/') &&
        !request.url.startsWith('/api/docs') &&
        !reply.hasHeader('cache-control')
      ) {
        reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'response-headers' },
);
