import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './errors.js';

/** What no text of the portal may hold, each with how the refusal names it. */
const UNSTORABLE = [
  // PostgreSQL cannot store NUL in text, and no field of the portal has a use for it.
  { holds: (text: string) => text.includes('\u0000'), named: 'NUL characters (\\u0000)' },
  // Half of a UTF-16 pair, which JSON's \uD800 can spell: the databases store it as U+FFFD,
  // so the text read back would not be the text the answer said was saved.
  {
    holds: (text: string) => /\p{Surrogate}/u.test(text),
    named: 'unpaired surrogates (\\uD800 to \\uDFFF)',
  },
];

/** What `text` holds that no field may (`UNSTORABLE`'s name for it), or null. */
function unstorableIn(text: string): string | null {
  for (const { holds, named } of UNSTORABLE) if (holds(text)) return named;
  return null;
}

/**
 * Where in `value` a string or key holds what no text may ('body.name', 'address.email'), and
 * what it holds; or null. The walk keeps its own stack, so a body nested a hundred thousand
 * levels deep cannot overflow it.
 */
export function findUnstorableText(
  value: unknown,
  root: string,
): { where: string; what: string } | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length > 0) {
    const [current, where] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      const what = unstorableIn(current);
      if (what) return { where, what };
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push([item, `${where}.${index}`]);
      });
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        const what = unstorableIn(key);
        if (what) return { where, what };
        stack.push([item, `${where}.${key}`]);
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
 * `preValidation` for every route: text with a NUL character or half a surrogate pair is refused
 * with a 400 that names where it was, before any route or the auth library can hand it to the
 * database. A request with no parameters, query or body (most reads) is let through at once.
 */
function refuseUnstorableText(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const { params, query, body } = request;
  if (isEmpty(params) && isEmpty(query) && isEmpty(body)) return done();
  const found =
    findUnstorableText(params, 'address') ??
    findUnstorableText(query, 'query') ??
    findUnstorableText(parsedBody(body), 'body');
  if (!found) return done();
  reply
    .code(400)
    .send(errorBody(400, `Text may not contain ${found.what}; found one in ${found.where}.`));
}

/** `refuseUnstorableText` before every route's validation. */
export const textInputPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', refuseUnstorableText);
  },
  { name: 'text-input' },
);
