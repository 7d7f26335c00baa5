import { randomUUID } from 'node:crypto';
import {
  addDays,
  type BookingRulesInput,
  CALENDAR_MAX_DAYS,
  type IsoDate,
  type ScheduleEntry,
  weekdayOf,
} from '@doctors-portal/contract';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { adminActor, recordAudit } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import { forgetAvailabilityAnswers } from '../bookings/availability-cache.js';
import { isLive } from '../bookings/booking-rules.js';
import type { ClinicMoment } from '../bookings/clock.js';
import { inAppointmentOrder, toScheduleEntry } from '../bookings/presenters.js';
import { listSchedule } from '../bookings/repository.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { moveReminders } from '../mail/reminders.js';
import {
  BOOKING_RULES_SETTING,
  clinicCalendarMessages,
  defaultRules,
  forgetClinicCalendar,
  OPENING_DAYS_SETTING,
  readClinicCalendar,
  type StoredClosure,
  toClosure,
} from './calendar.js';

/**
 * The clinic's changes to its calendar and booking rules (administrators). Each is written with
 * its audit entry in one transaction; afterwards this instance forgets the calendar, the rules
 * and the availability answers it had kept, so that its next answer shows the change.
 */

/**
 * Makes the settings' changes wait for one another (PostgreSQL; SQLite writes one transaction
 * at a time), so that each reads, audits and answers from the state the one before it left:
 * two administrators saving at once both audited the days as they were before either, and
 * answered bookings from that state. The mode lets every read of the settings (each booking's)
 * go on.
 */
async function oneSettingsChangeAtATime(tx: Kysely<Database>): Promise<void> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`lock table clinic_setting in share row exclusive mode`.execute(tx);
}

function afterChange(db: Kysely<Database>): void {
  forgetClinicCalendar(db);
  forgetAvailabilityAnswers();
}

async function writeSetting(
  tx: Kysely<Database>,
  name: string,
  value: unknown,
  admin: CurrentUser,
  at: Date,
): Promise<void> {
  const row = {
    name,
    value: JSON.stringify(value),
    updated_at: at.toISOString(),
    updated_by: admin.id,
  };
  await tx
    .insertInto('clinic_setting')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .column('name')
        .doUpdateSet({ value: row.value, updated_at: row.updated_at, updated_by: row.updated_by }),
    )
    .execute();
}

/**
 * `PUT /api/clinic/opening-days`: the days of the week the clinic opens, sorted; and the
 * weekdays this change closed, which were open before.
 */
export async function setOpeningDays(
  db: Kysely<Database>,
  admin: CurrentUser,
  days: number[],
): Promise<{ days: number[]; closed: number[] }> {
  const sorted = [...days].sort();
  const at = new Date();
  const closed = await db.transaction().execute(async (tx) => {
    await oneSettingsChangeAtATime(tx);
    const before = (await readClinicCalendar(tx, null)).openingDays;
    // The same days again change nothing, and the audit log keeps only changes.
    if (before.length === sorted.length && before.every((day) => sorted.includes(day))) return [];
    await writeSetting(tx, OPENING_DAYS_SETTING, sorted, admin, at);
    await recordAudit(tx, {
      actor: adminActor(admin),
      action: 'clinic.opening_days_changed',
      subject: { type: 'clinic', id: OPENING_DAYS_SETTING, label: 'Opening days' },
      before: { days: before },
      after: { days: sorted },
      at,
    });
    return before.filter((day) => !sorted.includes(day));
  });
  afterChange(db);
  return { days: sorted, closed };
}

const sameRules = (a: BookingRulesInput, b: BookingRulesInput) =>
  (Object.keys(b) as (keyof BookingRulesInput)[]).every((key) => a[key] === b[key]);

/**
 * `PUT /api/clinic/rules`: the clinic's own booking rules, in place of the environment's. A new
 * reminder lead moves the reminders waiting in the queue (in the clinic's `timeZone`).
 */
export async function setBookingRules(
  db: Kysely<Database>,
  admin: CurrentUser,
  rules: BookingRulesInput,
  timeZone: string,
): Promise<void> {
  const at = new Date();
  await db.transaction().execute(async (tx) => {
    await oneSettingsChangeAtATime(tx);
    const stored = (await readClinicCalendar(tx, null, defaultRules(db))).storedRules;
    // The rules stored already, saved again, change nothing: the audit log keeps only changes.
    if (stored && sameRules(stored, rules)) return;
    const before = stored ?? defaultRules(db);
    await writeSetting(tx, BOOKING_RULES_SETTING, rules, admin, at);
    if (rules.reminderLeadHours !== before.reminderLeadHours) {
      await moveReminders(tx, timeZone, rules.reminderLeadHours);
    }
    await recordAudit(tx, {
      actor: adminActor(admin),
      action: 'clinic.rules_changed',
      subject: { type: 'clinic', id: BOOKING_RULES_SETTING, label: 'Booking rules' },
      before: { ...before },
      after: { ...rules },
      at,
    });
  });
  afterChange(db);
}

/**
 * The live bookings (booked or confirmed, not started) on the days from `from` to `to`, in slot
 * order: those a closure leaves the clinic to cancel.
 */
export async function liveBookingsBetween(
  db: Kysely<Database>,
  moment: ClinicMoment,
  from: IsoDate,
  to: IsoDate,
): Promise<ScheduleEntry[]> {
  if (to < moment.today) return [];
  const rows = await listSchedule(db, { from: from < moment.today ? moment.today : from, to });
  return inAppointmentOrder(rows.filter((row) => isLive(row, moment))).map(toScheduleEntry);
}

/**
 * The live bookings of the coming year (`CALENDAR_MAX_DAYS` from today) on `weekdays`
 * (0 = Sunday): those a change of the opening days leaves on days now closed.
 */
export async function liveBookingsOnWeekdays(
  db: Kysely<Database>,
  moment: ClinicMoment,
  weekdays: number[],
): Promise<ScheduleEntry[]> {
  if (weekdays.length === 0) return [];
  const lastDay = addDays(moment.today, CALENDAR_MAX_DAYS - 1);
  const coming = await liveBookingsBetween(db, moment, moment.today, lastDay);
  return coming.filter((booking) => weekdays.includes(weekdayOf(booking.date)));
}

/** `POST /api/closures`: the clinic is closed from `from` to `to`, for `label`. */
export async function addClosure(
  db: Kysely<Database>,
  admin: CurrentUser,
  input: { from: IsoDate; to: IsoDate; label: string },
): Promise<StoredClosure> {
  const at = new Date();
  const row = {
    id: randomUUID(),
    from_date: input.from,
    to_date: input.to,
    label: input.label,
    created_at: at.toISOString(),
    created_by: admin.id,
  };
  await db.transaction().execute(async (tx) => {
    await tx.insertInto('closure').values(row).execute();
    await recordAudit(tx, {
      actor: adminActor(admin),
      action: 'clinic.closure_added',
      subject: { type: 'closure', id: row.id, label: input.label },
      after: { from: input.from, to: input.to, label: input.label },
      at,
    });
  });
  afterChange(db);
  return toClosure(row);
}

/** `DELETE /api/closures/{id}`: the clinic opens on those days again (404 for an unknown id). */
export async function removeClosure(
  db: Kysely<Database>,
  admin: CurrentUser,
  id: string,
): Promise<void> {
  const at = new Date();
  await db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('closure').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new HttpError(404, clinicCalendarMessages.noSuchClosure);
    // Another administrator's removal of it at the same moment (PostgreSQL) read the row too:
    // only the one whose delete found it removes it and audits it.
    const { numDeletedRows } = await tx
      .deleteFrom('closure')
      .where('id', '=', id)
      .executeTakeFirst();
    if (numDeletedRows === 0n) throw new HttpError(404, clinicCalendarMessages.noSuchClosure);
    await recordAudit(tx, {
      actor: adminActor(admin),
      action: 'clinic.closure_removed',
      subject: { type: 'closure', id, label: row.label },
      before: { from: row.from_date, to: row.to_date, label: row.label },
      at,
    });
  });
  afterChange(db);
}

/** The rules in force, the environment's, and whether the clinic stored its own. */
export async function describeRules(db: Kysely<Database>) {
  const stored = (await readClinicCalendar(db)).storedRules;
  const defaults = defaultRules(db);
  return { rules: stored ?? defaults, defaults, stored: stored !== null };
}
