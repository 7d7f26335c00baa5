import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './errors.js';

/**
 * Where in `value` a string holds a NUL character ('body.name', 'address.email'), or null.
 * PostgreSQL cannot store NUL in text, and no field of the portal has a use for it. The walk
 * keeps its own stack, so a body nested a hundred thousand levels deep cannot overflow it.
 */
export function findNul(value: unknown, root: string): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push([item, `${path}.${index}`]);
      });
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (key.includes('\u0000')) return path;
        stack.push([item, `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** A JSON body kept as text (the auth routes keep theirs) is looked into as well. */
function parsedBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** Whether a parsed part of the request holds nothing to look into. */
const isEmpty = (part: unknown) =>
  part === undefined || part === null || (typeof part === 'object' && isEmptyObject(part));

function isEmptyObject(part: object): boolean {
  for (const _ in part) return false;
  return true;
}

/**
 * `preValidation` for every route: text with a NUL character is refused with a 400 that names
 * where it was, before any route or the auth library can hand it to the database. A request with
 * no parameters, query or body (most reads) is let through at once.
 */
function refuseNulCharacters(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const { params, query, body } = request;
  if (isEmpty(params) && isEmpty(query) && isEmpty(body)) return done();
  const where =
    findNul(params, 'address') ?? findNul(query, 'query') ?? findNul(parsedBody(body), 'body');
  if (!where) return done();
  reply
    .code(400)
    .send(errorBody(400, `Text may not contain NUL characters (\\u0000); found one in ${where}.`));
}

/** `refuseNulCharacters` before every route's validation. */
export const textInputPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', refuseNulCharacters);
  },
  { name: 'text-input' },
);
