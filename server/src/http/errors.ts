import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isForeignKeyViolation } from '../db/foreign-key-violation.js';

/** The body of every error answer: Fastify's own shape, with a message a person can act on. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** For validation errors: which field failed and why, so forms can show it inline. */
  issues?: Array<{ field: string; message: string }>;
}

/**
 * `ErrorBody` as every route's response schema declares it, for each 4xx and 5xx it may answer.
 */
export const errorResponseSchema = z
  .object({
    statusCode: z.number(),
    error: z.string(),
    message: z.string(),
    issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .describe(
    "Fastify's error shape, with a message a person can act on (and, for a request that " +
      'failed validation, which field failed and why).',
  ) satisfies z.ZodType<ErrorBody>;

/**
 * The response schemas of the error answers a route declares: `...errorResponses(400, 401, 404)`
 * stands for `400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema`.
 */
export function errorResponses<const Code extends number>(
  ...codes: Code[]
): Record<Code, typeof errorResponseSchema> {
  return Object.fromEntries(codes.map((code) => [code, errorResponseSchema])) as Record<
    Code,
    typeof errorResponseSchema
  >;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Zod's own wording does not name the field ('Invalid input: expected string'); ours does. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

const A_OR_AN: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** Zod's default wording in plain words, naming the field: 'age must be a number'. */
function plainZodMessage(field: string, message: string): string {
  const expected = /^Invalid input: expected (\w+), received (\w+)$/.exec(message);
  if (expected) {
    const [, want = '', got] = expected;
    if (got === 'undefined') return `${field} is required`;
    if (got === 'NaN' && want === 'number') return `${field} must be a number`;
    return `${field} must be ${A_OR_AN[want] ?? want}`;
  }
  const size =
    /^Too (small|big): expected (string|number|int|bigint|array) to (?:have|be) ([<>]=?)([\d.]+)/.exec(
      message,
    );
  if (size) {
    const [, which, kind, , bound] = size;
    if (which === 'small' && bound === '1' && kind !== 'number')
      return `${field} must not be empty`;
    const unit = kind === 'string' ? ' characters' : kind === 'array' ? ' items' : '';
    return `${field} must be ${which === 'small' ? 'at least' : 'at most'} ${bound}${unit}`;
  }
  return `${field}: ${message}`;
}

/** The longest path parameter the router accepts (an email of 254 characters, encoded). */
export const MAX_PARAM_LENGTH = 1000;

/** Where a failed validation looked, as a person would call it. */
const PART_NAMES: Record<string, string> = {
  body: 'The request body',
  querystring: 'The query string',
  params: 'The address',
  headers: 'The request headers',
};

function sizeOf(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1
    ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`
    : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Fastify's own refusals, reworded so that a person can act on them. Their default wording
 * echoes the raw address back ('/api/%zz' is not a valid url component) or says only
 * 'Request body is too large'.
 */
function frameworkMessage(error: FastifyError, request: FastifyRequest): string | undefined {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return 'The address is not valid: part of it is not correctly percent-encoded.';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return `The address is too long: no part of it may be longer than ${MAX_PARAM_LENGTH} characters.`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit;
      return limit
        ? `The request body is larger than the ${sizeOf(limit)} this address accepts.`
        : 'The request body is too large.';
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = String(request.headers['content-type'] ?? '')
        .split(';', 1)[0]
        ?.trim();
      const wanted = request.server.hasContentTypeParser('multipart/form-data')
        ? 'multipart/form-data'
        : 'JSON (Content-Type: application/json)';
      return `This address does not accept ${type ? `a body of type ${type.slice(0, 100)}` : 'a body without a type'}: send ${wanted}.`;
    }
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON, or uses a reserved key such as __proto__.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty although its Content-Type says JSON: send a JSON body.';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The request body does not match its Content-Length.';
    default:
      return undefined;
  }
}

/**
 * The Content-Encoding of a body the parser could not read, when it names one (gzip, br, …): the
 * portal reads bodies as sent, so such a body fails as bad JSON, though its fault is the encoding.
 */
function bodyEncoding(error: FastifyError, request: FastifyRequest): string | null {
  if (!error.code?.startsWith('FST_ERR_CTP_') || error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return null;
  }
  const encoding = String(request.headers['content-encoding'] ?? '').trim();
  return encoding && encoding.toLowerCase() !== 'identity' ? encoding : null;
}

/** The answer to a request that named something removed while it ran. */
export const REMOVED_MEANWHILE =
  'Something this request refers to was removed a moment ago. Reload the page and try again.';

/**
 * The one place errors become answers. 4xx keep their message; 5xx are logged with their
 * cause and answered with a generic sentence, so no stack trace or SQL reaches a client.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const part = PART_NAMES[error.validationContext ?? ''] ?? 'The request';
    const issues = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = issue.message ?? 'is invalid';
      if (!ZOD_DEFAULT_MESSAGE.test(message)) return { field, message };
      if (field) return { field, message: plainZodMessage(field, message) };
      // The part as a whole has the wrong shape: a list, a number or nothing for an object.
      const wanted = /^Invalid input: expected (\w+)/.exec(message)?.[1];
      return {
        field,
        message: wanted === 'object' ? `${part} must be a JSON object.` : `${part} is not valid.`,
      };
    });
    return reply
      .code(400)
      .send({ ...errorBody(400, issues[0]?.message ?? 'Invalid request'), issues });
  }
  if (isForeignKeyViolation(error)) {
    // Not a fault of ours: what the request named was removed while it ran.
    request.log.warn({ err: error }, 'request named a row removed meanwhile');
    return reply.code(409).send(errorBody(409, REMOVED_MEANWHILE));
  }
  const encoding = bodyEncoding(error, request);
  if (encoding) {
    // RFC 7694: a 415 for an encoding the server does not take, listing the one it does.
    return reply
      .code(415)
      .header('accept-encoding', 'identity')
      .send(
        errorBody(
          415,
          `The request body is compressed (${encoding.slice(0, 50)}), which this address does not accept: send it uncompressed.`,
        ),
      );
  }
  const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send(errorBody(500, 'Something went wrong on our side. Please try again in a moment.'));
  }
  const message = frameworkMessage(error, request) ?? error.message;
  return reply
    .code(statusCode)
    .send(errorBody(statusCode, message.trim() ? message : (STATUS_CODES[statusCode] ?? 'Error')));
}

/** An error whose message is meant for the client: thrown by handlers, answered as it says. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
