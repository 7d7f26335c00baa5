import { z } from 'zod';
import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX } from './constants.js';
import { emailField, isPlainLine, isPlainText } from './validation.js';

/**
 * The landing page's Contact Us form (spec: email required, subject, message). `website` is a
 * field people never see (a honeypot): a form that arrives with it filled was sent by a bot.
 */
export const contactRequestSchema = z.object({
  email: emailField(),
  subject: z
    .string({ error: 'Subject must be text' })
    .trim()
    .max(CONTACT_SUBJECT_MAX, `Subject must be ${CONTACT_SUBJECT_MAX} characters or shorter`)
    .refine(
      isPlainLine,
      'Subject must not contain line breaks, control or text-direction characters',
    )
    .default(''),
  message: z
    .string({ error: 'Message must be text' })
    .trim()
    .max(CONTACT_MESSAGE_MAX, `Message must be ${CONTACT_MESSAGE_MAX} characters or shorter`)
    .refine(isPlainText, 'Message must not contain control or text-direction characters')
    .default(''),
  website: z.string().max(2000).optional(),
});
export type ContactRequest = z.input<typeof contactRequestSchema>;

/** What the form says once the clinic has the message. */
export const contactSentMessage =
  'Thank you: your message has reached our front desk. We will answer within one working day.';

export const contactSentSchema = z.object({ success: z.literal(true), message: z.string() });

/** A message as the clinic's administrators read it. */
export const contactMessageSchema = z.object({
  _id: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  /** ISO time. */
  createdAt: z.string(),
  read: z.boolean(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

/** `GET /api/contact-messages`: newest first; `unread` keeps only those nobody has read. */
export const contactMessagesQuerySchema = z.object({
  unread: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const CONTACT_MESSAGES_PAGE_SIZE = 50;

/** `PATCH /api/contact-messages/{id}`. */
export const contactMessageReadSchema = z.object({ read: z.boolean() });
