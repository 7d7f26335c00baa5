import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './errors.js';

/**
 * The longest path, without its query, the portal answers. Its longest real addresses are an
 * email address in the path (MAX_PARAM_LENGTH, 1000 characters once encoded) and a reset link's
 * token; 2048 leaves room for both and is what browsers and proxies commonly guarantee.
 */
export const MAX_PATH_LENGTH = 2048;

/** A '.' or '..' segment, raw or percent-encoded, between slashes or backslashes (also encoded). */
const DOT_SEGMENT = /(?:^|\/|\\|%2f|%5c)(?:\.|%2e){1,2}(?=$|\/|\\|%2f|%5c)/i;

export const pathErrors = {
  tooLong: `The address is too long: its path may be at most ${MAX_PATH_LENGTH} characters.`,
  dotSegment: 'The address is not valid: it may not contain "." or ".." segments.',
};

/**
 * `onRequest` for every request: a path with a '.' or '..' segment, or longer than any address
 * of the portal, is refused with a 400 in the API's JSON shape before anything else looks at it.
 * Browsers resolve dot segments before they send a request, so only a hand-made request has one;
 * left to the router such a path reached the static file handler, which refused it with a 403,
 * and '/api/../x' was not an API address to the router while its handlers might read it as one.
 */
function refuseUnsafePaths(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const url = request.url;
  const queryAt = url.indexOf('?');
  const pathLength = queryAt === -1 ? url.length : queryAt;
  if (pathLength > MAX_PATH_LENGTH) {
    reply.code(400).send(errorBody(400, pathErrors.tooLong));
    return;
  }
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if ((path.includes('.') || path.includes('%')) && DOT_SEGMENT.test(path)) {
    reply.code(400).send(errorBody(400, pathErrors.dotSegment));
    return;
  }
  done();
}

/** `refuseUnsafePaths` on every request, right after the security headers are set. */
export const requestPathPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', refuseUnsafePaths);
  },
  { name: 'request-path', dependencies: ['security-headers'] },
);
