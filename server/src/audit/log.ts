import type { AuditAction } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { compiledInsert } from '../db/compiled-once.js';
import { orderedId } from '../db/ordered-id.js';
import type { Database } from '../db/schema.js';

export type { AuditAction } from '@doctors-portal/contract';

/** Who made a change: an account (as it is at the time) or the server itself. */
export type AuditActor =
  | { kind: 'admin' | 'patient'; id: string; name: string; email: string }
  | {
      kind: 'system';
      /** What in the server acted, e.g. 'stripe-webhook'; 'system' when left out. */
      name?: string;
    };

/** An account that made a change. */
export type AccountActor = Extract<AuditActor, { kind: 'admin' | 'patient' }>;

/** What a change was, to what, and the changed fields before and after it. */
export interface AuditEntry {
  actor: AuditActor;
  action: AuditAction;
  /** What was changed; `label` is what a person reads for it, e.g. a booking's treatment and date. */
  subject: { type: string; id: string; label?: string };
  /** The changed fields as they were; null or left out when the subject is new. */
  before?: Record<string, unknown> | null;
  /** The changed fields as they are now; null or left out when the subject is gone. */
  after?: Record<string, unknown> | null;
  /** When; now when left out. */
  at?: Date;
}

interface Person {
  id: string;
  name: string;
  email: string;
}

/** An administrator acting in the back office. */
export const adminActor = (user: Person): AccountActor => ({
  kind: 'admin',
  id: user.id,
  name: user.name,
  email: user.email,
});

/** A patient acting on their own booking. */
export const patientActor = (user: Person): AccountActor => ({
  kind: 'patient',
  id: user.id,
  name: user.name,
  email: user.email,
});

/** The server acting on its own, e.g. a payment provider's webhook. */
export const systemActor = (name = 'system'): AuditActor => ({ kind: 'system', name });

/**
 * Field names whose values the log never keeps: passwords, tokens, secrets, sessions and every
 * detail of a card. Matched anywhere in a name, in any case, at any depth.
 */
const SECRET_FIELD =
  /password|passcode|passphrase|^pass$|token|secret|session|cookie|authori[sz]ation|api_?key|signature|card|cvc|cvv|last4|exp_?(month|year)|payment_?method|iban/i;

/** 13 to 19 digits, together or in groups, standing alone (not part of an id such as a UUID). */
const DIGIT_RUN = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/g;

/** Whether the digits pass the Luhn check every card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let at = 0; at < digits.length; at += 1) {
    let digit = Number(digits[digits.length - 1 - at]);
    if (at % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A copy of `value` without secret fields and with any card number in a text masked. */
export function redacted(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.replace(DIGIT_RUN, (run) => (luhn(run.replace(/\D/g, '')) ? '[redacted]' : run));
  }
  if (Array.isArray(value)) return value.map(redacted);
  if (value instanceof Date) return value.toISOString();
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_FIELD.test(key))
        .map(([key, field]) => [key, redacted(field)]),
    );
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function fieldsJson(fields: Record<string, unknown> | null | undefined): string | null {
  if (fields === null || fields === undefined) return null;
  return JSON.stringify(redacted(fields));
}

/** An entry written: compiled once, as every booking writes one. */
const insertEntry = compiledInsert('audit_log', [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'actor_email',
  'action',
  'subject_type',
  'subject_id',
  'subject_label',
  'before',
  'after',
]);

/**
 * Writes one entry to the audit log with `tx`: the caller's transaction, so that the change and
 * its record are committed together or not at all. It adds one insert and no read. Fields that
 * could hold a password, token or card detail are left out (`redacted`).
 */
export async function recordAudit(tx: Kysely<Database>, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  const who =
    actor.kind === 'system'
      ? { actor_id: null, actor_name: actor.name ?? 'system', actor_email: null }
      : { actor_id: actor.id, actor_name: actor.name, actor_email: actor.email };
  await insertEntry(tx, {
    id: orderedId(),
    at: (entry.at ?? new Date()).toISOString(),
    actor_kind: actor.kind,
    ...who,
    action: entry.action,
    subject_type: entry.subject.type,
    subject_id: entry.subject.id,
    subject_label: entry.subject.label ?? null,
    before: fieldsJson(entry.before),
    after: fieldsJson(entry.after),
  });
}

/** A booking as the log names it: its treatment, day and slot as booked. */
export const bookingSubject = (booking: {
  id: string;
  treatment_name: string;
  date: string;
  slot: string;
}) => ({
  type: 'booking',
  id: booking.id,
  label: `${booking.treatment_name}, ${booking.date}, ${booking.slot}`,
});

/** The entry for a booking's cancellation: the status it had, and the reason given. */
export const bookingCancelled = (
  actor: AuditActor,
  booking: Parameters<typeof bookingSubject>[0] & { status: string },
  reason: string | null,
  at: Date,
): AuditEntry => ({
  actor,
  action: 'booking.cancelled',
  subject: bookingSubject(booking),
  before: { status: booking.status },
  after: { status: 'cancelled', reason },
  at,
});

/** An account as the log names it: by its email. */
export const userSubject = (user: { id: string; email: string }) => ({
  type: 'user',
  id: user.id,
  label: user.email,
});

/** A doctor as the log names it: by name and email. */
export const doctorSubject = (doctor: { id: string; name: string; email: string }) => ({
  type: 'doctor',
  id: doctor.id,
  label: `${doctor.name} <${doctor.email}>`,
});
