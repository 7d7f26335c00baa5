import { createHash, randomBytes } from 'node:crypto';
import {
  addDays,
  calendarFeedSchema,
  type IsoDate,
  slotEndMinutes,
  slotStartMinutes,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod';
import { type AuditActor, adminActor, doctorSubject, recordAudit } from '../audit/log.js';
import { callerOf, requireAdmin } from '../auth/guards.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { statusNamed } from '../bookings/repository.js';
import type { Database } from '../db/schema.js';
import { errorBody, errorResponses } from '../http/errors.js';
import { buildFeed } from '../mail/ics.js';
import { bookingCalendarUid } from '../mail/templates.js';
import { lockDoctor } from './repository.js';

/**
 * A doctor's own calendar feed (issue 15, item 5): a secret URL that Google, Outlook and Apple
 * Calendar subscribe to, listing the doctor's visits with the patient's first name and the
 * treatment only. The URL carries a 32-byte random token; the database keeps only its SHA-256,
 * so a feed is found by one lookup of the hash under a unique index (no comparison of the
 * secret itself that could leak its prefix by timing), and a copy of the database opens none.
 */

/** Where feeds are served; the access log hides the token that follows (http/access-log.ts). */
export const CALENDAR_FEED_PREFIX = '/api/calendar/';

/** The token in a feed's last path segment: 32 bytes in base64url, then '.ics'. */
const FEED_FILE = /^([A-Za-z0-9_-]{43})\.ics$/;

/** How far back a feed reaches: a doctor sees last month's visits as well as what is ahead. */
export const FEED_DAYS_BACK = 30;

/** The most visits one feed lists, a bound on its size (a full year of a busy doctor). */
const FEED_MAX_EVENTS = 5000;

export const calendarFeedErrors = {
  noSuchDoctor: 'There is no such doctor.',
  noSuchFeed:
    'There is no such calendar feed: its address may have been replaced or turned off. ' +
    'Ask the clinic for the current one.',
};

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The feed's URL for `token`, under the portal's public address. */
const feedUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}${CALENDAR_FEED_PREFIX}${token}.ics`;

/**
 * Deletes a doctor's feed within `tx`, if they have one. Answers the doctor (as the audit log
 * names them) and whether a feed was deleted, or null for no such doctor.
 */
async function removeFeedOf(tx: Transaction<Database>, doctorId: string) {
  // After another new URL made at the same moment, whose feed this then deletes.
  await lockDoctor(tx, doctorId);
  const doctor = await tx
    .selectFrom('doctor')
    .select(['id', 'name', 'email'])
    .where('id', '=', doctorId)
    .executeTakeFirst();
  if (!doctor) return null;
  const deleted = await tx
    .deleteFrom('doctor_calendar_feed')
    .where('doctor_id', '=', doctorId)
    .executeTakeFirst();
  return { doctor, hadFeed: Number(deleted.numDeletedRows) > 0 };
}

/**
 * Makes a new feed token for a doctor, replacing the one they had (its URL stops working at
 * once), and records it in the audit log in the same transaction. Answers the token, or null
 * for no such doctor.
 */
export async function createCalendarFeed(
  db: Kysely<Database>,
  doctorId: string,
  actor: AuditActor,
): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  const row = {
    doctor_id: doctorId,
    token_hash: hashOf(token),
    created_at: new Date().toISOString(),
    created_by: actor.kind === 'system' ? null : actor.id,
  };
  return db.transaction().execute(async (tx) => {
    const removed = await removeFeedOf(tx, doctorId);
    if (!removed) return null;
    await tx.insertInto('doctor_calendar_feed').values(row).execute();
    await recordAudit(tx, {
      actor,
      action: 'doctor.calendar_feed_created',
      subject: doctorSubject(removed.doctor),
      before: removed.hadFeed ? { calendarFeed: 'on' } : null,
      after: { calendarFeed: removed.hadFeed ? 'new address' : 'on' },
    });
    return token;
  });
}

/**
 * Turns a doctor's feed off, recorded in the audit log. Answers whether the doctor exists
 * (turning off a feed that is already off is no error and records nothing).
 */
export async function revokeCalendarFeed(
  db: Kysely<Database>,
  doctorId: string,
  actor: AuditActor,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const removed = await removeFeedOf(tx, doctorId);
    if (!removed) return false;
    if (removed.hadFeed) {
      await recordAudit(tx, {
        actor,
        action: 'doctor.calendar_feed_revoked',
        subject: doctorSubject(removed.doctor),
        before: { calendarFeed: 'on' },
        after: { calendarFeed: 'off' },
      });
    }
    return true;
  });
}

/** The doctor whose feed `token` opens, or undefined. */
async function doctorOfToken(db: Kysely<Database>, token: string) {
  return db
    .selectFrom('doctor_calendar_feed')
    .innerJoin('doctor', 'doctor.id', 'doctor_calendar_feed.doctor_id')
    .select(['doctor.id as id', 'doctor.name as name'])
    .where('doctor_calendar_feed.token_hash', '=', hashOf(token))
    .executeTakeFirst();
}

/** The first word of a patient's name: all a doctor's calendar shows of who is coming. */
export function firstNameOf(patientName: string): string {
  return patientName.trim().split(/\s+/, 1)[0] || 'Patient';
}

/** A doctor's live visits from `from` on, by date and time (read through booking_doctor_date_idx). */
async function visitsOf(db: Kysely<Database>, doctorId: string, from: IsoDate) {
  const rows = await db
    .selectFrom('booking')
    .select(['id', 'date', 'slot', 'treatment_name', 'patient_name', 'sequence'])
    .where('doctor_id', '=', doctorId)
    .where('date', '>=', from)
    .where('status', '<>', statusNamed('cancelled'))
    .orderBy('date')
    .limit(FEED_MAX_EVENTS)
    .execute();
  return rows.flatMap((row) => {
    const startMinutes = slotStartMinutes(row.slot);
    const endMinutes = slotEndMinutes(row.slot);
    return startMinutes === null || endMinutes === null
      ? []
      : [{ ...row, startMinutes, endMinutes }];
  });
}

/**
 * `/api/doctor/{id}/calendar-feed` (admin: make a new feed URL, or turn the feed off) and the
 * feed itself at `/api/calendar/{token}.ics` (public: whoever holds the URL reads it).
 */
export const calendarFeedRoutes: FastifyPluginAsyncZod = async (app) => {
  const doctorParams = z.object({ id: z.string().min(1).max(100) });

  app.post(
    '/doctor/:id/calendar-feed',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'createDoctorCalendarFeed',
        summary: "Make a new secret URL for a doctor's calendar feed",
        description:
          'Answers the URL of an iCalendar feed of the doctor’s visits (patient’s first name ' +
          'and treatment only) that calendar apps subscribe to. The URL is shown once: only a ' +
          'hash of its secret is kept. Any earlier URL of the doctor stops working at once. ' +
          '404 for an unknown doctor.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: doctorParams,
        response: { 200: calendarFeedSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const token = await createCalendarFeed(
        app.db,
        request.params.id,
        adminActor(callerOf(request)),
      );
      if (!token) return reply.code(404).send(errorBody(404, calendarFeedErrors.noSuchDoctor));
      reply.header('cache-control', 'private, no-store');
      return { url: feedUrl(app.config.publicUrl, token) };
    },
  );

  app.delete(
    '/doctor/:id/calendar-feed',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'revokeDoctorCalendarFeed',
        summary: "Turn a doctor's calendar feed off",
        description:
          'The feed’s URL stops working at once (404). Answers 204 whether or not the doctor ' +
          'had a feed; 404 for an unknown doctor.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        params: doctorParams,
        response: {
          204: z.null().describe('The feed is off; no body.'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const known = await revokeCalendarFeed(
        app.db,
        request.params.id,
        adminActor(callerOf(request)),
      );
      if (!known) return reply.code(404).send(errorBody(404, calendarFeedErrors.noSuchDoctor));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/calendar/:file',
    {
      schema: {
        operationId: 'getDoctorCalendarFeed',
        summary: "A doctor's calendar feed (iCalendar), at its secret URL",
        description:
          'The URL that `POST /api/doctor/{id}/calendar-feed` answered. An RFC 5545 calendar ' +
          `(METHOD:PUBLISH) of the doctor’s visits from ${FEED_DAYS_BACK} days ago on, each ` +
          'with the booking’s UID (the same as the confirmation mail’s event), its time in the ' +
          'clinic’s time zone, and the patient’s first name and the treatment. 404 for a URL ' +
          'that was replaced or turned off.',
        tags: ['bookings'],
        security: [],
        params: z.object({
          file: z.string().max(200).describe('The secret token, then .ics'),
        }),
        response: {
          200: {
            description: 'The calendar, text/calendar.',
            content: { 'text/calendar': { schema: z.string() } },
          },
          ...errorResponses(400, 404),
        },
      },
    },
    async (request, reply) => {
      const token = FEED_FILE.exec(request.params.file)?.[1];
      const doctor = token ? await doctorOfToken(app.db, token) : undefined;
      if (!doctor) {
        reply.header('cache-control', 'no-store');
        return reply.code(404).send(errorBody(404, calendarFeedErrors.noSuchFeed));
      }
      const { timeZone, name: clinicName, email: clinicEmail } = app.config.clinic;
      const now = clock.now();
      const from = addDays(clinicMoment(timeZone, now).today, -FEED_DAYS_BACK);
      const visits = await visitsOf(app.db, doctor.id, from);
      const calendar = buildFeed({
        name: `${doctor.name} · ${clinicName}`,
        timeZone,
        from,
        events: visits.map((visit) => ({
          uid: bookingCalendarUid(clinicEmail, visit.id),
          date: visit.date,
          startMinutes: visit.startMinutes,
          endMinutes: visit.endMinutes,
          summary: `${firstNameOf(visit.patient_name)} · ${visit.treatment_name}`,
          // As in the patient's mails: one more each move, so that calendars take the new time.
          sequence: visit.sequence,
          stamp: now,
        })),
      });
      return reply
        .header('cache-control', 'private, max-age=300')
        .header('x-robots-tag', 'noindex')
        .header('content-disposition', 'inline; filename="appointments.ics"')
        .type('text/calendar; charset=utf-8')
        .send(calendar);
    },
  );
};
