import {
  formatDollars,
  type IsoDate,
  SCHEDULE_SEARCH_LIMIT,
  type Schedule,
  type ScheduleEntry,
  STATUS_LABELS,
  scheduleQuerySchema,
  scheduleSchema,
  scheduleSearchQuerySchema,
  scheduleSearchSchema,
} from '@doctors-portal/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/guards.js';
import { clinicMoment, clock } from '../bookings/clock.js';
import { inAppointmentOrder, scheduleJson, toScheduleEntry } from '../bookings/presenters.js';
import { listSchedule, searchSchedule } from '../bookings/repository.js';
import { errorResponseSchema as error, errorResponses } from '../http/errors.js';
import {
  PRUNE_SCHEDULE_CHANGES_MS,
  pruneScheduleChanges,
  scheduleAnswerCache,
} from './answer-cache.js';
import { toCsv } from './csv.js';

type ScheduleQuery = z.output<typeof scheduleQuerySchema>;

const scheduleCsvSchema = z.string();

/** The CSV export's columns, in order, and how each is written from a schedule entry. */
const CSV_COLUMNS: Array<[string, (entry: ScheduleEntry) => string | number]> = [
  ['Date', (entry) => entry.date],
  ['Time', (entry) => entry.slot],
  ['Treatment', (entry) => entry.treatment],
  ['Patient', (entry) => entry.patientName],
  ['Email', (entry) => entry.patientMail],
  ['Phone', (entry) => entry.phone],
  ['Age', (entry) => entry.age],
  ['Price', (entry) => formatDollars(entry.price)],
  ['Paid', (entry) => (entry.paid ? 'yes' : 'no')],
  ['Transaction id', (entry) => entry.transactionId ?? ''],
  ['Status', (entry) => STATUS_LABELS[entry.status]],
  ['No-shows', (entry) => entry.noShows],
  ['Cancel reason', (entry) => (entry.status === 'cancelled' ? (entry.cancelReason ?? '') : '')],
  ['Refund id', (entry) => entry.refund?.id ?? ''],
];

/** The export's file name: 'schedule-2031-01-05.csv', or 'schedule-2031-01-05-to-2031-01-11.csv'. */
export function csvFileName(from: IsoDate, to: IsoDate): string {
  return from === to ? `schedule-${from}.csv` : `schedule-${from}-to-${to}.csv`;
}

/** Newest-relevant first: the upcoming days soonest first, then the past days latest first. */
function inSearchOrder<T extends { date: string }>(rows: T[], today: IsoDate): T[] {
  const upcoming = rows.filter((row) => row.date >= today);
  const past = rows.filter((row) => row.date < today);
  // Stable: each day keeps its slot order.
  return [
    ...upcoming,
    ...past.toSorted((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
  ];
}

/**
 * `/api/schedule` and `/api/schedule.csv` (administrators only): the clinic's bookings of up to
 * 31 days, day by day in slot order, with each patient's phone, age and count of no-shows, paid
 * or not and where each visit stands; cancelled ones are listed as cancelled (they hold no slot).
 * The CSV export is the same list as a spreadsheet reads it. `/api/schedule/search` finds a
 * patient's bookings on any date, by name or email.
 */
export const scheduleRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The range's bookings as stored, in appointment order. */
  const scheduleRows = async (query: ScheduleQuery) =>
    inAppointmentOrder(
      await listSchedule(app.db, {
        from: query.from,
        to: query.to,
        q: query.q || undefined,
        treatmentId: query.treatmentId || undefined,
      }),
    );
  /** This instance's answers, each given again while no booking or refund has changed. */
  const answers = scheduleAnswerCache(app.db);
  // What the answers are checked against is kept from growing for good (PostgreSQL); an answer
  // kept from before a prune is worked out again once.
  const prune = setInterval(() => {
    pruneScheduleChanges(app.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not prune the record of schedule changes'),
    );
  }, PRUNE_SCHEDULE_CHANGES_MS);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));

  app.get(
    '/schedule',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'getSchedule',
        summary: "The clinic's bookings of a range of days, in slot order",
        description:
          '`from` and `to` are ISO dates in the clinic’s time zone, both included, at most 31 ' +
          'days apart (400 otherwise). `treatmentId` keeps one treatment’s bookings; `q` keeps ' +
          'the patients whose name or email contains it. Cancelled bookings are listed with ' +
          'status `cancelled`; they hold no slot.',
        tags: ['schedule'],
        security: [{ bearer: [] }],
        querystring: scheduleQuerySchema,
        response: { 200: scheduleSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      const { from, to, treatmentId, q } = request.query;
      const today = clinicMoment(app.config.clinic.timeZone, clock.now()).today;
      const body = await answers.answer(
        JSON.stringify([from, to, today, treatmentId || '', q || '']),
        async () => scheduleJson({ from, to, today }, await scheduleRows(request.query)),
      );
      // Already the JSON the 200 schema's encoder would write (scheduleJson), as bytes: Fastify
      // sends a Buffer as it is.
      return reply
        .header('cache-control', 'private, no-store')
        .type('application/json; charset=utf-8')
        .send(body as unknown as Schedule);
    },
  );

  app.get(
    '/schedule/search',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'searchSchedule',
        summary: "A patient's bookings on any date, by part of their name or email",
        description:
          '`q` (2 to 200 characters once trimmed; 400 otherwise) is found anywhere in the ' +
          'patient’s name or email, in any case; `%` and `_` are plain characters. The bookings, ' +
          'cancelled ones included, come upcoming first (from the clinic’s today, soonest ' +
          `first), then past ones (most recent first), each day in slot order: at most ` +
          `${SCHEDULE_SEARCH_LIMIT}, and \`more\` is true when others match too.`,
        tags: ['schedule'],
        security: [{ bearer: [] }],
        querystring: scheduleSearchQuerySchema,
        response: { 200: scheduleSearchSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { q } = request.query;
      const today = clinicMoment(app.config.clinic.timeZone, clock.now()).today;
      const found = await searchSchedule(app.db, { q, today, limit: SCHEDULE_SEARCH_LIMIT });
      reply.header('cache-control', 'private, no-store');
      return {
        q,
        bookings: inSearchOrder(inAppointmentOrder(found.bookings), today).map(toScheduleEntry),
        more: found.more,
      };
    },
  );

  app.get(
    '/schedule.csv',
    {
      onRequest: requireAdmin,
      schema: {
        operationId: 'exportSchedule',
        summary: "The clinic's bookings of a range of days as a CSV file",
        description:
          'The same bookings and filters as `GET /api/schedule`, as RFC 4180 CSV (a header row, ' +
          'CRLF line ends) to download. A field a spreadsheet would run as a formula (starting ' +
          "with =, +, -, @, a tab or CR) starts with a single quote (').",
        tags: ['schedule'],
        security: [{ bearer: [] }],
        querystring: scheduleQuerySchema,
        response: {
          200: {
            description: 'The schedule as CSV, one booking a line after the header row.',
            content: { 'text/csv': { schema: scheduleCsvSchema } },
          },
          400: error,
          401: error,
          403: error,
        },
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const entries = (await scheduleRows(request.query)).map(toScheduleEntry);
      const csv = toCsv(
        CSV_COLUMNS.map(([name]) => name),
        entries.map((entry) => CSV_COLUMNS.map(([, value]) => value(entry))),
      );
      return reply
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${csvFileName(from, to)}"`)
        .type('text/csv; charset=utf-8')
        .send(csv);
    },
  );
};
