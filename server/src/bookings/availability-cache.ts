import type { IsoDate } from '@doctors-portal/contract';
import type { ClinicMoment } from './clock.js';

/** How long an instance reuses a day's availability answer it computed. */
export const AVAILABILITY_CACHE_MS = 1_000;
/** Past this many entries, the expired ones are swept before another is added. */
const SWEEP_AT = 500;
/** Past this many days remembered as changed, every answer is forgotten instead. */
const MAX_CHANGED_DAYS = 10_000;

/** Counts the changes that make answers stale: made through this instance, or told of. */
let changes = 0;
/** The last change that made every answer stale: the clinic changed what it offers. */
let everythingChangedAt = 0;
/** The last change of each day's bookings since then. */
const dayChangedAt = new Map<IsoDate, number>();

/** Told of each change made through this instance (plugins/app/write-news.ts tells the others). */
const forgettingListeners = new Set<(dates: readonly IsoDate[]) => void>();

/**
 * Makes every availability cache of this process forget the answers of `dates`, changed through
 * another instance that told of it (empty: every day); told to nobody.
 */
export function forgetAvailabilityAnswersChangedElsewhere(dates: readonly IsoDate[]): void {
  changes += 1;
  if (dates.length === 0 || dayChangedAt.size + dates.length > MAX_CHANGED_DAYS) {
    everythingChangedAt = changes;
    dayChangedAt.clear();
    return;
  }
  for (const date of dates) dayChangedAt.set(date, changes);
}

/**
 * Makes every availability cache of this process forget the answers of `dates`, whose bookings
 * changed through this instance; with no date, every answer (the clinic changed its treatments,
 * their slots or prices, or its calendar). A day's answer depends on that day's bookings alone.
 */
export function forgetAvailabilityAnswers(...dates: IsoDate[]): void {
  forgetAvailabilityAnswersChangedElsewhere(dates);
  for (const listener of forgettingListeners) listener(dates);
}

/**
 * Calls `listener` with the days of each change made through this instance (none: every day).
 * Returns what stops it.
 */
export function onAvailabilityAnswersForgotten(
  listener: (dates: readonly IsoDate[]) => void,
): () => void {
  forgettingListeners.add(listener);
  return () => forgettingListeners.delete(listener);
}

/** Whether an answer for `date` worked out from the data as it stood at `version` still holds. */
function stillHolds(date: IsoDate, version: number): boolean {
  return version >= everythingChangedAt && version >= (dayChangedAt.get(date) ?? 0);
}

/**
 * The availability answers (as JSON text) this instance computed in the last
 * AVAILABILITY_CACHE_MS, by day and clinic moment. GET /api/available is the portal's busiest
 * call and its answer is the same for everybody: under load most requests are served from here
 * without reading the database or serialising again (see docs/performance.md).
 *
 * Correctness: every booking, move and cancellation made through this instance makes its days'
 * answers stale at once, so a patient always sees their own change, and an answer worked out
 * while such a change went through is not kept (it is stamped with the `version` read before
 * its reads began). A change made through another instance shows here as soon as that instance
 * tells of it (with Redis, plugins/app/write-news.ts) and within AVAILABILITY_CACHE_MS in any
 * case, the same window a slot could be taken between reading the page and booking; the
 * database's unique index still refuses the second booking of a slot.
 */
export function availabilityCache(ttlMs = AVAILABILITY_CACHE_MS) {
  const entries = new Map<string, { at: number; json: string; version: number; date: IsoDate }>();
  /**
   * Today's answer also depends on the minute: started slots leave it. An answer narrowed to one
   * doctor (`GET /api/available?doctor=`) is kept apart from the clinic's.
   */
  const keyOf = (date: IsoDate, moment: ClinicMoment, doctorId: string | undefined) =>
    `${date}|${moment.today}|${date === moment.today ? moment.minutes : ''}|${doctorId ?? ''}`;
  return {
    /** The data's version: read it before the reads an answer is worked out from. */
    version: (): number => changes,
    get(
      date: IsoDate,
      moment: ClinicMoment,
      now = Date.now(),
      doctorId?: string,
    ): string | undefined {
      const entry = entries.get(keyOf(date, moment, doctorId));
      return entry && now - entry.at < ttlMs && stillHolds(date, entry.version)
        ? entry.json
        : undefined;
    },
    /** Keeps an answer worked out from the data as it stood at `version`, unless stale already. */
    set(
      date: IsoDate,
      moment: ClinicMoment,
      json: string,
      version: number,
      now = Date.now(),
      doctorId?: string,
    ): void {
      if (!stillHolds(date, version)) return;
      if (entries.size >= SWEEP_AT) {
        for (const [key, entry] of entries) {
          if (now - entry.at >= ttlMs || !stillHolds(entry.date, entry.version))
            entries.delete(key);
        }
      }
      entries.set(keyOf(date, moment, doctorId), { at: now, json, version, date });
    },
  };
}
