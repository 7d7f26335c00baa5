import {
  type AvailableTreatment,
  addDays,
  centsToDollars,
  type IsoDate,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { bookingRulesOf, cachedClinicCalendar, closedReason } from '../clinic/calendar.js';
import type { Database } from '../db/schema.js';
import { cachedTreatments } from '../treatments/repository.js';
import { type ClinicMoment, startsWithin } from './clock.js';
import { bookedSlotsOn, slotKey } from './repository.js';

/**
 * Every treatment in display order with the slots still bookable on `date`: booked slots,
 * slots of past dates, slots starting within the clinic's minimum notice (today's that have
 * started, at least) are left out, and a day the clinic is closed (a weekly closed day or a
 * closure) or beyond its booking horizon has none: what is shown is what can be booked.
 */
export async function availableOn(
  db: Kysely<Database>,
  date: IsoDate,
  moment: ClinicMoment,
): Promise<AvailableTreatment[]> {
  const past = date < moment.today;
  const [treatments, booked, calendar, rules] = await Promise.all([
    cachedTreatments(db),
    past ? new Set<string>() : bookedSlotsOn(db, date),
    cachedClinicCalendar(db),
    bookingRulesOf(db),
  ]);
  const none =
    past ||
    date > addDays(moment.today, rules.horizonDays) ||
    closedReason(calendar, date) !== null;
  const notice = rules.minNoticeMinutes;
  return treatments.map((treatment) => ({
    _id: treatment.id,
    name: treatment.name,
    slots: none
      ? []
      : treatment.slots.filter(
          (slot) =>
            !booked.has(slotKey(treatment.id, slot)) && !startsWithin(date, slot, moment, notice),
        ),
    price: centsToDollars(treatment.priceCents),
  }));
}
