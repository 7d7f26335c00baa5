import { z } from 'zod';
import { isoDateField } from './booking.js';

/** Who made a change: an administrator, a patient acting on their own booking, or the server. */
export const auditActorKinds = ['admin', 'patient', 'system'] as const;
export type AuditActorKind = (typeof auditActorKinds)[number];

/**
 * The changes the audit log records by name. Treatments and the clinic's rules, opening days and
 * closures are recorded under `treatment.…` and `clinic.…` names of their own.
 */
export const auditActions = [
  'booking.created',
  'booking.cancelled',
  'booking.rescheduled',
  'booking.paid',
  'booking.refunded',
  'booking.refund_failed',
  'booking.status',
  'role.granted',
  'role.revoked',
  'user.removed',
  'doctor.added',
  'doctor.updated',
  'doctor.deleted',
  'doctor.calendar_feed_created',
  'doctor.calendar_feed_revoked',
] as const;
export type AuditAction =
  | (typeof auditActions)[number]
  | `treatment.${string}`
  | `clinic.${string}`;

/** An action name, or a family of them such as `booking.*`. */
const actionFilter = z
  .string()
  .trim()
  .max(100)
  .regex(/^[a-z_]+(\.([a-z_]+|\*))*$/, 'Action must look like booking.created or booking.*');

/** `GET /api/audit`: a date range in the clinic's time zone, who, what, and the page. */
export const auditQuerySchema = z
  .object({
    from: isoDateField.optional(),
    to: isoDateField.optional(),
    /** An account's id, or part of its name or email; 'system' for the server's own actions. */
    actor: z.string().trim().max(200).optional(),
    action: z.union([z.literal(''), actionFilter]).optional(),
    /** The `nextCursor` of the previous page. */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'The start date must not be after the end date',
    path: ['from'],
  });
export type AuditQuery = z.input<typeof auditQuerySchema>;
export const AUDIT_PAGE_SIZE = 50;

/** A JSON object of the changed fields. */
const changedFields = z.record(z.string(), z.unknown()).nullable();

export const auditEntrySchema = z.object({
  _id: z.string(),
  /** ISO time. */
  at: z.string(),
  actor: z.object({
    kind: z.enum(auditActorKinds),
    id: z.string().nullable(),
    name: z.string().nullable(),
    email: z.string().nullable(),
  }),
  action: z.string(),
  subject: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }),
  before: changedFields,
  after: changedFields,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** One page of entries, newest first; `nextCursor` asks for the page after it, null at the end. */
export const auditPageSchema = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
