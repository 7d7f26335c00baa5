import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The body of every error answer: Fastify's own shape, with a message a person can act on. */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** For validation errors: which field failed and why, so forms can show it inline. */
  issues?: Array<{ field: string; message: string }>;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Zod's own wording does not name the field ('Invalid input: expected string'); ours does. */
const ZOD_DEFAULT_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized)/;

/**
 * The one place errors become answers. 4xx keep their message; 5xx are logged with their
 * cause and answered with a generic sentence, so no stack trace or SQL reaches a client.
 */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((issue) => {
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const message = issue.message ?? 'is invalid';
      return {
        field,
        message: field && ZOD_DEFAULT_MESSAGE.test(message) ? `${field}: ${message}` : message,
      };
    });
    return reply
      .code(400)
      .send({ ...errorBody(400, issues[0]?.message ?? 'Invalid request'), issues });
  }
  const statusCode = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send(errorBody(500, 'Something went wrong on our side. Please try again in a moment.'));
  }
  return reply.code(statusCode).send(errorBody(statusCode, error.message));
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
