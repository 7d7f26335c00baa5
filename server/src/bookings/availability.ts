import {
  type AvailableDoctor,
  type AvailableTreatment,
  addDays,
  centsToDollars,
  type IsoDate,
  slotUnits,
  weekdayOf,
} from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { bookingRulesOf, cachedClinicCalendar, closedReason } from '../clinic/calendar.js';
import type { BookingRules } from '../config/env.js';
import type { Database } from '../db/schema.js';
import { doctorsOffOn, listProviders, type Provider } from '../doctors/repository.js';
import { HttpError } from '../http/errors.js';
import { cachedTreatments, findTreatment } from '../treatments/repository.js';
import { type ClinicMoment, clockSkipsOn, skippedOnClock, startsWithin } from './clock.js';
import { bookingErrors } from './errors.js';
import { bookedSlotsOn, doctorUnitsOn, slotKey } from './repository.js';

/**
 * Who can take a slot on one date: the doctors who perform each treatment (in a stable order:
 * name, then id), who is off that date, and the time units each doctor holds that date. Three
 * reads, whatever the number of doctors: the (doctor, treatment) pairs, the date's entries of
 * the days-off index and of the doctor units' unique index.
 */
export interface DoctorDay {
  weekday: number;
  providers: Map<string, Provider[]>;
  off: Set<string>;
  units: Map<string, Set<number>>;
}

export async function doctorDay(db: Kysely<Database>, date: IsoDate): Promise<DoctorDay> {
  const [pairs, off, units] = await Promise.all([
    listProviders(db),
    doctorsOffOn(db, date),
    doctorUnitsOn(db, date),
  ]);
  const providers = new Map<string, Provider[]>();
  for (const provider of pairs) {
    const list = providers.get(provider.treatmentId) ?? [];
    list.push(provider);
    providers.set(provider.treatmentId, list);
  }
  return { weekday: weekdayOf(date), providers, off, units };
}

/** The doctors who perform the treatment and work on the day (its weekday, not a day off). */
export function doctorsAtWork(day: DoctorDay, treatmentId: string): Provider[] {
  return (day.providers.get(treatmentId) ?? []).filter(
    (provider) => provider.workDays.includes(day.weekday) && !day.off.has(provider.id),
  );
}

/** Whether the doctor holds none of the slot's time units that day. */
export function isFree(day: DoctorDay, doctorId: string, slot: string): boolean {
  const held = day.units.get(doctorId);
  return !held || !slotUnits(slot).some((unit) => held.has(unit));
}

/**
 * Every treatment in display order with the slots still bookable on `date`: booked slots,
 * slots of past dates, slots starting within the clinic's minimum notice (today's that have
 * started, at least) are left out, and a day the clinic is closed (a weekly closed day or a
 * closure) or beyond its booking horizon has none: what is shown is what can be booked.
 *
 * A treatment some doctor performs offers a slot when one of those doctors works that day and
 * is free for the slot's whole time (docs/decisions/020); one no doctor performs keeps one chair:
 * a slot is offered until it is booked. With `doctorId`, only that doctor's slots are offered
 * (none of the treatments they do not perform).
 */
export async function availableOn(
  db: Kysely<Database>,
  date: IsoDate,
  moment: ClinicMoment,
  options: {
    doctorId?: string | undefined;
    /** The rules in force, read by the caller: inside a transaction, `bookingRulesWithin`. */
    rules?: BookingRules;
  } = {},
): Promise<AvailableTreatment[]> {
  const { doctorId } = options;
  const past = date < moment.today;
  const [treatments, booked, calendar, rules, day] = await Promise.all([
    cachedTreatments(db),
    past ? new Set<string>() : bookedSlotsOn(db, date),
    cachedClinicCalendar(db),
    options.rules ?? bookingRulesOf(db),
    past ? undefined : doctorDay(db, date),
  ]);
  const none =
    past ||
    day === undefined ||
    date > addDays(moment.today, rules.horizonDays) ||
    closedReason(calendar, date) !== null;
  const notice = rules.minNoticeMinutes;
  // On the night the clocks go forward, the slots that start in the skipped hour do not exist.
  const skips = !none && clockSkipsOn(moment.timeZone, date);
  return treatments.map((treatment) => {
    const base = {
      _id: treatment.id,
      name: treatment.name,
      price: centsToDollars(treatment.priceCents),
    };
    if (none) return { ...base, slots: [] };
    const performers = day.providers.get(treatment.id) ?? [];
    const atWork = doctorsAtWork(day, treatment.id).filter(
      (provider) => doctorId === undefined || provider.id === doctorId,
    );
    const withDoctors = performers.length > 0;
    if (doctorId !== undefined && !withDoctors) return { ...base, slots: [] };
    const slots = treatment.slots.filter(
      (slot) =>
        // A booking made without a doctor holds its slot (one chair) either way.
        !booked.has(slotKey(treatment.id, slot)) &&
        !startsWithin(date, slot, moment, notice) &&
        !(skips && skippedOnClock(moment.timeZone, date, slot)) &&
        (!withDoctors || atWork.some((provider) => isFree(day, provider.id, slot))),
    );
    return { _id: base._id, name: base.name, slots, price: base.price };
  });
}

/**
 * The doctors free for `slot` of the treatment on `date`, in a stable order: none on a date or
 * at a time that cannot be booked. 400 for a treatment the clinic does not offer, or a slot it
 * does not offer for it.
 */
export async function availableDoctorsFor(
  db: Kysely<Database>,
  moment: ClinicMoment,
  treatmentId: string,
  date: IsoDate,
  slot: string,
): Promise<AvailableDoctor[]> {
  const treatment = await findTreatment(db, treatmentId);
  if (!treatment) throw new HttpError(400, bookingErrors.unknownTreatment);
  if (!treatment.slots.includes(slot)) throw new HttpError(400, bookingErrors.slotNotOffered);
  const [offered] = (await availableOn(db, date, moment)).filter(
    (entry) => entry._id === treatment.id,
  );
  if (!offered?.slots.includes(slot)) return [];
  const day = await doctorDay(db, date);
  return doctorsAtWork(day, treatment.id)
    .filter((provider) => isFree(day, provider.id, slot))
    .map((provider) => ({ _id: provider.id, name: provider.name, image: provider.image }));
}
