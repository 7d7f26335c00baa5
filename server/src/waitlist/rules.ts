import { formatMediumDate, type IsoDate, paths, waitlistMessages } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { CurrentUser } from '../auth/current-user.js';
import { availableOn, doctorDay, doctorsAtWork } from '../bookings/availability.js';
import { bookableDate } from '../bookings/booking-rules.js';
import { type ClinicMoment, clinicMoment, clock } from '../bookings/clock.js';
import { bookingErrors } from '../bookings/errors.js';
import { findPatientBooking } from '../bookings/repository.js';
import { bookingRulesWithin } from '../clinic/calendar.js';
import type { Booking, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import {
  findEntry,
  insertEntry,
  leaveOnBooking,
  listEntries,
  takeWaitingFor,
} from './repository.js';

/** How many waiting patients hear of one freed slot at once (docs/decisions/024). */
export const TOLD_PER_FREED_SLOT = 3;

/** The most upcoming waitlist entries a patient holds: enough for anyone, a bound on abuse. */
export const WAITLIST_MAX_ENTRIES = 10;

/**
 * Puts the patient on the waitlist of a treatment on a date, by the booking rules for the date
 * (400: past, beyond the horizon, closed, unknown treatment), and only when it has no free slot
 * that day, the patient does not hold it already, nor wait for it, nor wait for
 * WAITLIST_MAX_ENTRIES others already (409). Answers the entry's id.
 */
export async function joinWaitlist(
  app: FastifyInstance,
  moment: ClinicMoment,
  patient: CurrentUser,
  request: { treatmentId: string; date: IsoDate },
): Promise<{ id: string; treatment: string }> {
  if (!patient.emailVerified) throw new HttpError(403, bookingErrors.unverified);
  const { date } = request;
  const { treatment } = await bookableDate(
    app.db,
    moment,
    app.config.bookingRules,
    request.treatmentId,
    date,
  );
  const day = await availableOn(app.db, date, moment);
  if ((day.find((offer) => offer._id === treatment.id)?.slots.length ?? 0) > 0) {
    throw new HttpError(409, waitlistMessages.slotFree);
  }
  // Full, not empty: a day none of its dentists works would never free a slot to offer.
  const dentists = await doctorDay(app.db, date);
  if (dentists.providers.has(treatment.id) && doctorsAtWork(dentists, treatment.id).length === 0) {
    throw new HttpError(
      409,
      bookingErrors.noDentistThatDay(treatment.name, formatMediumDate(date)),
    );
  }
  if (await findPatientBooking(app.db, patient.id, treatment.id, date)) {
    throw new HttpError(409, waitlistMessages.alreadyBooked);
  }
  const upcoming = await listEntries(app.db, patient.id, moment.today);
  if (upcoming.length >= WAITLIST_MAX_ENTRIES) {
    throw new HttpError(409, waitlistMessages.tooMany(upcoming.length));
  }
  const id = await insertEntry(app.db, {
    patientId: patient.id,
    treatmentId: treatment.id,
    date,
    // The order patients joined in is real time, not the clinic's rules clock (which tests hold).
    now: new Date(),
  });
  if (id === null) throw new HttpError(409, waitlistMessages.alreadyWaiting);
  return { id, treatment: treatment.name };
}

/** The caller's own entry: 404 for none, 403 for another patient's. */
export async function ownEntry(app: FastifyInstance, patient: CurrentUser, id: string) {
  const entry = await findEntry(app.db, id);
  if (!entry) throw new HttpError(404, waitlistMessages.noSuchEntry);
  if (entry.patient_id !== patient.id) throw new HttpError(403, waitlistMessages.notYours);
  return entry;
}

/**
 * The booking page with the slot's form open: the page's own day (`date`, ISO) and the
 * treatment to open (`book`), as after signing in, and the slot to pick.
 */
export function slotLink(
  publicUrl: string,
  booking: Pick<Booking, 'date' | 'treatment_id' | 'slot'>,
) {
  const query = new URLSearchParams({
    date: booking.date,
    book: booking.treatment_id,
    slot: booking.slot,
  });
  return `${publicUrl}${paths.appointment}?${query}`;
}

/**
 * Follows each booking's life for the waitlist, in the transaction of the change: a patient who
 * books a treatment on a date leaves its list; a slot freed by a cancellation or a move (its
 * `before`) is mailed to the first few waiting patients not yet told of it, in the order they
 * joined. A slot no longer bookable (started, or inside the minimum notice) is told to nobody.
 */
export function followBookingsForWaitlist(app: FastifyInstance): void {
  const { config } = app;

  async function tell(tx: Kysely<Database>, freed: Booking) {
    const moment = clinicMoment(config.clinic.timeZone, clock.now());
    if (freed.date < moment.today) return;
    // Offered as the booking page would offer it: not a day the clinic closed or its dentists
    // are away, not a slot started or inside the minimum notice, nor a treatment withdrawn.
    const rules = await bookingRulesWithin(tx, app.db);
    const day = await availableOn(tx, freed.date, moment, { rules });
    const offer = day.find((treatment) => treatment._id === freed.treatment_id);
    if (!offer?.slots.includes(freed.slot)) return;
    const waiting = await takeWaitingFor(
      tx,
      { treatmentId: freed.treatment_id, date: freed.date, slot: freed.slot },
      TOLD_PER_FREED_SLOT,
      new Date(),
    );
    for (const patient of waiting) {
      await app.mailQueue.add(tx, {
        kind: 'waitlist-slot-free',
        to: patient.email,
        name: patient.name,
        treatment: freed.treatment_name,
        isoDate: freed.date,
        slot: freed.slot,
        url: slotLink(config.publicUrl, freed),
      });
    }
  }

  app.bookingEvents.on(async (tx, change) => {
    const { booking } = change;
    switch (change.kind) {
      case 'booked':
      case 'moved':
        if (booking.patient_id) {
          await leaveOnBooking(tx, booking.patient_id, booking.treatment_id, booking.date);
        }
        if (change.kind === 'moved') {
          const { before } = change;
          if (before.date !== booking.date || before.slot !== booking.slot) await tell(tx, before);
        }
        return;
      case 'cancelled':
        return tell(tx, booking);
      case 'patient-left':
        return;
    }
  });
}
