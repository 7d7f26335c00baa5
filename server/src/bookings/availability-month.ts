import {
  type AvailableDay,
  type AvailableMonth,
  addDays,
  type IsoDate,
  weekdayOf,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { bookingRulesOf, cachedClinicCalendar, closedReason } from '../clinic/calendar.js';
import type { Database } from '../db/schema.js';
import { doctorsOffBetween, listProviders, type Provider } from '../doctors/repository.js';
import { cachedTreatments, type TreatmentRecord } from '../treatments/repository.js';
import { type DoctorDay, doctorsAtWork, isFree } from './availability.js';
import {
  type ClinicMoment,
  clinicInstant,
  clockSkipsOn,
  skippedOnClock,
  startsWithin,
} from './clock.js';
import { heldTimeBetween, slotKey } from './repository.js';

/**
 * `GET /api/available/month`: each day's status (contract `availableDaySchema`), as
 * `availableOn` would answer that day: 'open' exactly when it lists some slot.
 *
 * Why not one grouped count of the month's bookings per day and treatment against each
 * treatment's number of slots: that count cannot say which slots are taken, and the answer
 * depends on it. A doctor's booking of one treatment holds time units another treatment's slots
 * need (slots overlap, a doctor performs several treatments), a day's doctors differ by weekday
 * and days off, and the minimum notice takes today's (or tomorrow's) early slots away. So the
 * month reads what `availableOn` reads for a day, but for the whole range at once: the providers,
 * the days off, the slots held without a doctor and the doctors' held units, four queries
 * whatever the month, and none when no day of it can be booked. The per-day work is then done
 * in memory with `availableOn`'s own helpers.
 */
export async function availabilityOfMonth(
  db: Kysely<Database>,
  { month, to }: { month: string; to: IsoDate },
  moment: ClinicMoment,
): Promise<AvailableMonth> {
  const [treatments, calendar, rules] = await Promise.all([
    cachedTreatments(db),
    cachedClinicCalendar(db),
    bookingRulesOf(db),
  ]);
  const horizon = addDays(moment.today, rules.horizonDays);
  // Counted by day of the month, not with addDays: the day after 9999-12-31 has no ISO date.
  const dates = Array.from(
    { length: Number(to.slice(8)) },
    (_, index) => `${month}-${String(index + 1).padStart(2, '0')}` as IsoDate,
  );
  const days: (AvailableDay | IsoDate)[] = dates.map((date) => {
    if (date < moment.today) return { date, status: 'past' };
    const closed = closedReason(calendar, date);
    if (closed) return { date, status: 'closed', label: closed.label };
    if (date > horizon) return { date, status: 'beyond-horizon' };
    return date;
  });
  const bookable = days.filter((day): day is IsoDate => typeof day === 'string');
  const [first, last] = [bookable[0], bookable.at(-1)];
  if (first === undefined || last === undefined) return { month, days: days as AvailableDay[] };

  const [pairs, off, held] = await Promise.all([
    listProviders(db),
    doctorsOffBetween(db, first, last),
    heldTimeBetween(db, first, last),
  ]);
  const providers = new Map<string, Provider[]>();
  for (const provider of pairs) {
    providers.set(provider.treatmentId, [...(providers.get(provider.treatmentId) ?? []), provider]);
  }
  const noticeMs = rules.minNoticeMinutes * 60_000;
  return {
    month,
    days: days.map((day): AvailableDay => {
      if (typeof day !== 'string') return day;
      const doctorDay: DoctorDay = {
        weekday: weekdayOf(day),
        providers,
        off: off.get(day) ?? new Set(),
        units: held.get(day)?.units ?? new Map(),
      };
      // A day that begins after the notice has run out keeps every slot: no slot need be timed.
      const whole =
        day > moment.today && clinicInstant(moment.timeZone, day).getTime() - moment.at >= noticeMs;
      // The night the clocks go forward has no slots in the hour they skip (`availableOn`).
      const skips = clockSkipsOn(moment.timeZone, day);
      const status = dayStatus(
        treatments,
        doctorDay,
        held.get(day)?.booked ?? new Set(),
        (slot) =>
          (skips && skippedOnClock(moment.timeZone, day, slot)) ||
          (!whole && startsWithin(day, slot, moment, rules.minNoticeMinutes)),
      );
      return { date: day, status };
    }),
  };
}

/**
 * A bookable day's status: 'past' when every slot of every treatment is too soon to book (or
 * skipped by the clocks), 'open' when one of the others is free as `availableOn` decides it (not
 * taken without a doctor, and, for a treatment doctors perform, one of them at work and free for
 * all of it), else 'full'.
 */
function dayStatus(
  treatments: readonly TreatmentRecord[],
  day: DoctorDay,
  booked: Set<string>,
  tooSoon: (slot: string) => boolean,
): 'open' | 'full' | 'past' {
  let ahead = false;
  for (const treatment of treatments) {
    const withDoctors = (day.providers.get(treatment.id)?.length ?? 0) > 0;
    const atWork = doctorsAtWork(day, treatment.id);
    for (const slot of treatment.slots) {
      if (tooSoon(slot)) continue;
      ahead = true;
      const free =
        !booked.has(slotKey(treatment.id, slot)) &&
        (!withDoctors || atWork.some((provider) => isFree(day, provider.id, slot)));
      if (free) return 'open';
    }
  }
  return ahead ? 'full' : 'past';
}
