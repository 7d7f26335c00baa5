import { type AuditEntry, auditPageSchema, auditQuerySchema } from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../auth/guards.js';
import type { AuditLogTable } from '../db/schema.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import { listAudit } from './repository.js';

export const auditErrors = {
  badCursor: 'That page of the audit log does not exist: start again from the first page.',
};

function parsedFields(json: string | null): Record<string, unknown> | null {
  return json === null ? null : (JSON.parse(json) as Record<string, unknown>);
}

function toApiEntry(row: AuditLogTable): AuditEntry {
  return {
    _id: row.id,
    at: row.at,
    actor: {
      kind: row.actor_kind,
      id: row.actor_id,
      name: row.actor_name,
      email: row.actor_email,
    },
    action: row.action,
    subject: { type: row.subject_type, id: row.subject_id, label: row.subject_label },
    before: parsedFields(row.before),
    after: parsedFields(row.after),
  };
}

/**
 * `/api/audit`: the audit log, for the clinic's administrators. Read-only: entries are written
 * by the changes themselves (audit/log.ts), and no route changes or deletes one.
 */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listAuditLog',
        summary: 'The audit log, newest first, one page at a time',
        description:
          'Every change people made to bookings, payments, treatments, the clinic’s rules, ' +
          'roles, accounts and doctors, and the server’s own (e.g. a payment webhook). `from` ' +
          'and `to` are days in the clinic’s time zone, both included; `actor` is a kind of ' +
          "actor ('patient', 'admin' or 'system'), or an account’s id, part of its name or " +
          'email; `action` a name such as booking.created ' +
          'or a family such as booking.*. `nextCursor` asks for the next page.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const page = await listAudit(app.db, app.config.clinic.timeZone, request.query);
      if (!page) return reply.code(400).send(errorBody(400, auditErrors.badCursor));
      reply.header('cache-control', 'private, no-store');
      return { entries: page.rows.map(toApiEntry), nextCursor: page.nextCursor };
    },
  );
};
