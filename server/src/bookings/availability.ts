import { type AvailableTreatment, centsToDollars, type IsoDate } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { cachedTreatments } from '../treatments/repository.js';
import { type ClinicMoment, hasStarted } from './clock.js';
import { bookedSlotsOn, slotKey } from './repository.js';

/**
 * Every treatment in display order with the slots still bookable on `date`: booked slots,
 * slots of past dates and today's slots that have started are left out.
 */
export async function availableOn(
  db: Kysely<Database>,
  date: IsoDate,
  moment: ClinicMoment,
): Promise<AvailableTreatment[]> {
  const past = date < moment.today;
  const [treatments, booked] = await Promise.all([
    cachedTreatments(db),
    past ? new Set<string>() : bookedSlotsOn(db, date),
  ]);
  return treatments.map((treatment) => ({
    _id: treatment.id,
    name: treatment.name,
    slots: past
      ? []
      : treatment.slots.filter(
          (slot) => !booked.has(slotKey(treatment.id, slot)) && !hasStarted(date, slot, moment),
        ),
    price: centsToDollars(treatment.priceCents),
  }));
}
