import {
  contactMessageReadSchema,
  contactMessageSchema,
  contactMessagesQuerySchema,
  contactRequestSchema,
  contactSentMessage,
  contactSentSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/guards.js';
import type { RateLimitRule } from '../auth/rate-limit-store.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import {
  type ContactMessageRow,
  insertContactMessage,
  listContactMessages,
  markContactMessage,
} from './repository.js';

/** Per client address: enough for a person with a follow-up, too few for a flood. */
export const CONTACT_RATE_LIMIT: RateLimitRule = { window: 15 * 60, max: 5 };

export const contactErrors = {
  tooMany: (minutes: number) =>
    `You have sent several messages in a short time. Please wait ${minutes} minute${
      minutes === 1 ? '' : 's'
    } before sending another, or call us.`,
  noSuchMessage: 'No such message.',
};

// A malformed id names no message: 404 like an unknown one.
const messageParams = z.object({ id: z.string().max(100) });

function toApiMessage({ id, email, subject, message, created_at, read_at }: ContactMessageRow) {
  return { _id: id, email, subject, message, createdAt: created_at, read: read_at !== null };
}

/**
 * `/api/contact` and `/api/contact-messages…`: the landing page's Contact Us form reaches the
 * clinic (stored, and mailed to CLINIC_EMAIL through the mail queue in the same transaction),
 * and the clinic's administrators read the messages and mark them read or unread.
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/contact',
    {
      schema: {
        operationId: 'sendContactMessage',
        summary: 'Send a message to the clinic (the Contact Us form)',
        description:
          'Public. The email is required; the subject is at most 200 characters and the ' +
          'message at most 5,000. Limited per client address (429 with Retry-After). The ' +
          'message is stored and mailed to the clinic, with the visitor’s address as Reply-To.',
        tags: ['contact'],
        security: [],
        body: contactRequestSchema,
        response: { 201: contactSentSchema, 400: error, 429: error },
      },
    },
    async (request, reply) => {
      const { allowed, retryAfter } = await app.rateLimits.consume(
        `contact:${request.ip}`,
        CONTACT_RATE_LIMIT,
      );
      if (!allowed) {
        const seconds = retryAfter ?? CONTACT_RATE_LIMIT.window;
        return reply
          .code(429)
          .header('retry-after', String(seconds))
          .send(errorBody(429, contactErrors.tooMany(Math.ceil(seconds / 60))));
      }
      const { website, ...message } = request.body;
      // A bot filled the field people never see: it is told what a person would be, and the
      // clinic hears nothing of it.
      if (website && website.trim() !== '') {
        request.log.info('ignored a contact message with the hidden field filled');
        return reply.code(201).send({ success: true, message: contactSentMessage });
      }
      const at = new Date();
      await app.db.transaction().execute(async (tx) => {
        const row = await insertContactMessage(tx, message, at);
        await app.mailQueue.add(tx, {
          kind: 'contact-message',
          to: app.config.clinic.email,
          message: {
            id: row.id,
            email: row.email,
            subject: row.subject,
            message: row.message,
            receivedAt: row.created_at,
          },
        });
      });
      app.mailQueue.wake();
      return reply.code(201).send({ success: true, message: contactSentMessage });
    },
  );

  app.get(
    '/contact-messages',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'listContactMessages',
        summary: 'The Contact Us messages, newest first',
        description:
          'One page; the total is in `X-Total-Count` and the number unread in `X-Unread-Count`. ' +
          '`unread=true` lists only the unread ones.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        querystring: contactMessagesQuerySchema,
        response: { 200: z.array(contactMessageSchema), 400: error, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const { limit, offset, unread } = request.query;
      const page = await listContactMessages(app.db, {
        limit,
        offset,
        unreadOnly: unread === 'true',
      });
      reply
        .header('x-total-count', String(page.total))
        .header('x-unread-count', String(page.unread))
        .header('cache-control', 'private, no-store');
      return page.rows.map(toApiMessage);
    },
  );

  app.patch(
    '/contact-messages/:id',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'markContactMessage',
        summary: 'Mark a Contact Us message read or unread',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: messageParams,
        body: contactMessageReadSchema,
        response: { 200: contactMessageSchema, 400: error, 401: error, 403: error, 404: error },
      },
    },
    async (request, reply) => {
      const row = await markContactMessage(
        app.db,
        request.params.id,
        request.body.read,
        new Date(),
      );
      if (!row) return reply.code(404).send(errorBody(404, contactErrors.noSuchMessage));
      return toApiMessage(row);
    },
  );
};
