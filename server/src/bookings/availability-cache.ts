import type { IsoDate } from '@doctors-portal/contract';
import type { ClinicMoment } from './clock.js';

/** How long an instance reuses a day's availability answer it computed. */
export const AVAILABILITY_CACHE_MS = 1_000;
/** Past this many entries, the expired ones are swept before another is added. */
const SWEEP_AT = 500;

/** Bumped when the clinic changes what it offers (`forgetAvailabilityAnswers`). */
let generation = 0;

/**
 * Makes every availability cache of this process forget its answers: after a change of the
 * treatments (their slots, prices, or retirement) made through this instance.
 */
export function forgetAvailabilityAnswers(): void {
  generation += 1;
}

/**
 * The availability answers (as JSON text) this instance computed in the last
 * AVAILABILITY_CACHE_MS, by day and clinic moment. GET /api/available is the portal's busiest
 * call and its answer is the same for everybody: under load most requests are served from here
 * without reading the database or serialising again (see docs/performance.md).
 *
 * Correctness: every booking and cancellation made through this instance clears it at once, so a
 * patient always sees their own change. A change made through another instance shows here within
 * AVAILABILITY_CACHE_MS, the same window a slot could be taken between reading the page and
 * booking; the database's unique index still refuses the second booking of a slot.
 */
export function availabilityCache(ttlMs = AVAILABILITY_CACHE_MS) {
  const entries = new Map<string, { at: number; json: string; generation: number }>();
  /**
   * Today's answer also depends on the minute: started slots leave it. An answer narrowed to one
   * doctor (`GET /api/available?doctor=`) is kept apart from the clinic's.
   */
  const keyOf = (date: IsoDate, moment: ClinicMoment, doctorId: string | undefined) =>
    `${date}|${moment.today}|${date === moment.today ? moment.minutes : ''}|${doctorId ?? ''}`;
  return {
    get(
      date: IsoDate,
      moment: ClinicMoment,
      now = Date.now(),
      doctorId?: string,
    ): string | undefined {
      const entry = entries.get(keyOf(date, moment, doctorId));
      return entry && now - entry.at < ttlMs && entry.generation === generation
        ? entry.json
        : undefined;
    },
    set(
      date: IsoDate,
      moment: ClinicMoment,
      json: string,
      now = Date.now(),
      doctorId?: string,
    ): void {
      if (entries.size >= SWEEP_AT) {
        for (const [key, entry] of entries) if (now - entry.at >= ttlMs) entries.delete(key);
      }
      entries.set(keyOf(date, moment, doctorId), { at: now, json, generation });
    },
    /** After a booking or a cancellation through this instance. */
    clear(): void {
      entries.clear();
    },
  };
}
