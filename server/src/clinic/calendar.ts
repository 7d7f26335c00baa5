import {
  bookingRulesSchema,
  type ClosedDate,
  type Closure,
  datesBetween,
  EVERY_DAY,
  formatMediumDate,
  type IsoDate,
  WEEKDAY_NAMES,
  weekdayOf,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import type { BookingRules } from '../config/env.js';
import type { Database } from '../db/schema.js';

/**
 * The clinic's calendar and booking rules as the booking code reads them: the weekly opening
 * days, the closures and the rules in force (stored in the database, the environment's values
 * until the clinic sets its own). Every GET /api/available and booking asks for them, so each
 * instance keeps what it read for CLINIC_CALENDAR_CACHE_MS per database and forgets it at once
 * when it changes them itself; a change made through another instance shows here as soon as
 * that instance tells of it (with Redis, plugins/app/write-news.ts) and within that time in any
 * case.
 */

/** How long an instance reuses the calendar and rules it read. */
export const CLINIC_CALENDAR_CACHE_MS = 5_000;

export const OPENING_DAYS_SETTING = 'opening_days';
export const BOOKING_RULES_SETTING = 'booking_rules';

/** What the booking code needs of the clinic's calendar and rules, read at once. */
export interface ClinicCalendarState {
  /** The weekly opening days, sorted (0 = Sunday). */
  openingDays: number[];
  /** The closures not over before the day they were read (and any later ones), by first date. */
  closures: StoredClosure[];
  /** The rules the clinic stored, or null when it has stored none. */
  storedRules: BookingRules | null;
}

/** The environment's rules, per database: the app registers them when it starts. */
const defaultsByDb = new WeakMap<Kysely<Database>, BookingRules>();

/** Fallback for a database no app registered: the environment schema's own defaults. */
const BUILT_IN_DEFAULTS: BookingRules = {
  horizonDays: 180,
  minNoticeMinutes: 0,
  maxUnpaidBookings: 5,
  cancellationNoticeHours: 24,
  reminderLeadHours: 24,
};

/** Records the environment's booking rules as the defaults of `db` (at the app's start). */
export function setDefaultRules(db: Kysely<Database>, defaults: BookingRules): void {
  defaultsByDb.set(db, defaults);
}

/** The environment's booking rules of `db`. */
export function defaultRules(db: Kysely<Database>): BookingRules {
  return defaultsByDb.get(db) ?? BUILT_IN_DEFAULTS;
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function openingDaysOf(value: unknown): number[] {
  if (!Array.isArray(value)) return [...EVERY_DAY];
  const days = value.filter((day): day is number => Number.isInteger(day) && day >= 0 && day <= 6);
  return days.length > 0 ? [...new Set(days)].sort() : [...EVERY_DAY];
}

function rulesOf(value: unknown, defaults: BookingRules): BookingRules | null {
  if (value === undefined) return null;
  const parsed = bookingRulesSchema.partial().safeParse(value);
  return parsed.success ? { ...defaults, ...stripUndefined(parsed.data) } : null;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A closure as the server holds it: its dates are ISO dates. */
export type StoredClosure = Closure & { from: IsoDate; to: IsoDate };

export const toClosure = (row: {
  id: string;
  from_date: string;
  to_date: string;
  label: string;
  created_at: string;
}): StoredClosure => ({
  id: row.id,
  from: row.from_date as IsoDate,
  to: row.to_date as IsoDate,
  label: row.label,
  createdAt: row.created_at,
});

/**
 * Reads the calendar and rules from the database (closures ending on or after `since`). `db` may
 * be a transaction; `defaults` are then those of the database it belongs to.
 */
export async function readClinicCalendar(
  db: Kysely<Database>,
  since: IsoDate | null = null,
  defaults: BookingRules = defaultRules(db),
): Promise<ClinicCalendarState> {
  let closures = db.selectFrom('closure').selectAll();
  if (since) closures = closures.where('to_date', '>=', since);
  const [settings, rows] = await Promise.all([
    db.selectFrom('clinic_setting').select(['name', 'value']).execute(),
    closures.orderBy('from_date').orderBy('to_date').orderBy('id').execute(),
  ]);
  const setting = (name: string) => parseJson(settings.find((row) => row.name === name)?.value);
  return {
    openingDays: openingDaysOf(setting(OPENING_DAYS_SETTING)),
    closures: rows.map(toClosure),
    storedRules: rulesOf(setting(BOOKING_RULES_SETTING), defaults),
  };
}

interface CachedCalendar {
  at: number;
  state: Promise<ClinicCalendarState>;
  /** The state once read: until then, the read may still wait for a connection. */
  read?: ClinicCalendarState;
}

const cache = new WeakMap<Kysely<Database>, CachedCalendar>();

/**
 * The calendar and rules, read at most once per CLINIC_CALENDAR_CACHE_MS per database. `via`, a
 * transaction of `db`, reads them through itself when they are stale or still being read: a read
 * through `db` needs a connection of its own, and every connection may be held by transactions
 * waiting for it (on PostgreSQL, ten bookings at once waited for the pool's 5 s timeout and were
 * rolled back; on SQLite the one connection would have waited for ever).
 */
export function cachedClinicCalendar(
  db: Kysely<Database>,
  now = Date.now(),
  via: Kysely<Database> = db,
): Promise<ClinicCalendarState> {
  const hit = cache.get(db);
  if (hit && now - hit.at < CLINIC_CALENDAR_CACHE_MS && (hit.read || via === db)) return hit.state;
  const state = readClinicCalendar(via, null, defaultRules(db));
  const entry: CachedCalendar = { at: now, state };
  cache.set(db, entry);
  state.then(
    (read) => {
      entry.read = read;
    },
    // A failed read is not kept: the next call asks the database again.
    () => {
      if (cache.get(db) === entry) cache.delete(db);
    },
  );
  return state;
}

/** Forgets the cached calendar and rules of `db` (after this process changed them). */
export function forgetClinicCalendar(db: Kysely<Database>): void {
  cache.delete(db);
}

/** The booking rules in force: the clinic's own, or the environment's. */
export async function bookingRulesOf(db: Kysely<Database>): Promise<BookingRules> {
  return (await cachedClinicCalendar(db)).storedRules ?? defaultRules(db);
}

/**
 * The booking rules in force, from inside `tx`, a transaction of `db` (a booking event's
 * listener): read through `tx` unless the cache holds them already (`cachedClinicCalendar`).
 */
export async function bookingRulesWithin(
  tx: Kysely<Database>,
  db: Kysely<Database>,
): Promise<BookingRules> {
  return (await cachedClinicCalendar(db, Date.now(), tx)).storedRules ?? defaultRules(db);
}

/** Why the clinic is closed on `date`, or null when it is open. */
export function closedReason(state: ClinicCalendarState, date: IsoDate): ClosedDate | null {
  const closure = state.closures.find((entry) => entry.from <= date && date <= entry.to);
  if (closure) return { date, reason: 'closure', label: closure.label };
  const weekday = weekdayOf(date);
  if (!state.openingDays.includes(weekday)) {
    return { date, reason: 'weekly', label: `Closed on ${WEEKDAY_NAMES[weekday]}s` };
  }
  return null;
}

/** Every closed date from `from` to `to`, in date order. */
export function closedDatesBetween(
  state: ClinicCalendarState,
  from: IsoDate,
  to: IsoDate,
): ClosedDate[] {
  return datesBetween(from, to)
    .map((date) => closedReason(state, date))
    .filter((closed): closed is ClosedDate => closed !== null);
}

export const clinicCalendarMessages = {
  closed: (closed: ClosedDate) =>
    `The clinic is closed on ${formatMediumDate(closed.date as IsoDate)} (${closed.label}). Please pick another day.`,
  minimumNotice: (minutes: number) =>
    `Bookings close ${describeMinutes(minutes)} before the visit starts. Please pick a later slot.`,
  cancellationNotice: (hours: number, phone: string) =>
    `Appointments can be cancelled online up to ${hours} ${hours === 1 ? 'hour' : 'hours'} before the visit, and this one starts sooner. Please call the clinic on ${phone}.`,
  movedLate: (phone: string) =>
    `This visit was moved within the clinic's cancellation notice, so it can no longer be cancelled online. Please call the clinic on ${phone}.`,
  noSuchClosure: 'There is no such closure.',
} as const;

/** '90 minutes', '2 hours', '1 day'. */
export function describeMinutes(minutes: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}
