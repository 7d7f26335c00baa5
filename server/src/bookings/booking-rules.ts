import {
  addDays,
  type bookingRequestSchema,
  CANCELLATION_CLOSED,
  cancellationPolicy,
  formatMediumDate,
  type IsoDate,
  messages,
  type rescheduleRequestSchema,
  weekdayOf,
} from '@doctors-portal/contract';
import { CompiledQuery, type Kysely, PostgresAdapter, sql } from 'kysely';
import type { z } from 'zod';
import { bookingSubject, patientActor, recordAudit } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import {
  bookingRulesOf,
  cachedClinicCalendar,
  clinicCalendarMessages,
  closedReason,
} from '../clinic/calendar.js';
import type { BookingRules } from '../config/env.js';
import type { Transact } from '../db/group-commit.js';
import type { Booking, Database } from '../db/schema.js';
import { doctorsOffOn, findDoctor, listProviders, type Provider } from '../doctors/repository.js';
import { HttpError } from '../http/errors.js';
import { findTreatment, stillOffers } from '../treatments/repository.js';
import { type CancelDeps, type CancelOutcome, cancelWithRefund } from './cancel-with-refund.js';
import { type ClinicMoment, hasStarted, skippedOnClock, startsWithin } from './clock.js';
import { bookingErrors, patientCancelRefusals } from './errors.js';
import {
  type BookingMove,
  brokenBookingRule,
  countUnpaidUpcoming,
  doctorsBusyDuring,
  findBooking,
  findOverlappingBooking,
  findPatientBooking,
  insertBooking,
  lockBooking,
  lockPatient,
  moveBooking,
  newBookingRow,
  releaseBookingUnits,
  slotHeld,
} from './repository.js';

/**
 * The booking rules: who may book what and when, cancel it, and see it. Each throws an
 * HttpError saying why not. Dates are ISO dates throughout (the request schema decoded them).
 */

/** `POST /api/booking`'s body as the request schema decoded it: its date is an IsoDate. */
export type BookingRequestBody = z.output<typeof bookingRequestSchema>;

/** Whether the booking is the caller's own: it belongs to their account, whatever its email. */
export function isOwnBooking(caller: CurrentUser, booking: Booking): boolean {
  return booking.patient_id !== null && booking.patient_id === caller.id;
}

/**
 * Whether the patient may cancel the booking now: booked or confirmed (not yet arrived, seen,
 * missed or cancelled), paid or not, never moved by its patient inside the cancellation notice,
 * and not starting within that notice. The one rule: the API's `cancellable` flag, which the web
 * app shows, comes from here. The notice counts real hours (`startsWithin`), across a
 * daylight-saving change too.
 */
export function isCancellable(
  row: Pick<Booking, 'status' | 'date' | 'slot' | 'moved_late_at'>,
  moment: ClinicMoment,
  cancellationNoticeHours: number,
): boolean {
  return (
    isLive(row, moment) &&
    row.moved_late_at === null &&
    !startsWithin(row.date, row.slot, moment, cancellationNoticeHours * 60)
  );
}

/**
 * What a patient is told of cancelling a booking now (a mail, a mail link's page): the clinic's
 * policy, and for a live visit already past it (inside the notice, or moved inside it), that it
 * can no longer be cancelled online and the number to call.
 */
export function cancellationTerms(
  row: Pick<Booking, 'status' | 'date' | 'slot' | 'moved_late_at'>,
  moment: ClinicMoment,
  rules: { cancellationNoticeHours: number; clinicPhone: string },
): string {
  const { cancellationNoticeHours: hours, clinicPhone } = rules;
  const policy = cancellationPolicy(hours, clinicPhone);
  const past = isLive(row, moment) && !isCancellable(row, moment, hours);
  return past ? `${policy} ${CANCELLATION_CLOSED}` : policy;
}

/** Booked or confirmed, and not started: a booking its patient may still move. */
export function isLive(
  row: Pick<Booking, 'status' | 'date' | 'slot'>,
  moment: ClinicMoment,
): boolean {
  return (
    (row.status === 'booked' || row.status === 'confirmed') &&
    !hasStarted(row.date, row.slot, moment)
  );
}

/** `GET /api/booking/{id}`: a booking for its patient or the clinic's administrators. */
export async function readableBooking(
  db: Kysely<Database>,
  caller: CurrentUser,
  id: string,
): Promise<Booking> {
  const booking = await findBooking(db, id);
  if (!booking) throw new HttpError(404, bookingErrors.noSuchBooking);
  if (caller.role !== 'admin' && !isOwnBooking(caller, booking)) {
    throw new HttpError(403, bookingErrors.notYourBookingToSee);
  }
  return booking;
}

export type BookingOutcome =
  | { booked: true; booking: Booking }
  | { booked: false; rule: 'patient' | 'overlap'; existing: Booking }
  /** The slot is not to be had; `message` says why when it is not that someone took it. */
  | { booked: false; rule: 'slot'; message?: string };

/**
 * Books a slot for the signed-in patient. The server's records decide everything but the
 * treatment, date, slot, phone and age: the patient's name and email come from the session,
 * the treatment's name and price from the treatment. The patient's address must be verified, the
 * date within the booking horizon, and the patient's upcoming unpaid bookings under the cap
 * (counted in the booking's own transaction, the patient's row locked on PostgreSQL, so that
 * concurrent bookings cannot all slip under it). The unique indexes decide races; when one
 * refuses the insert, the patient's own booking for that treatment and date, or the one whose
 * time overlaps, is the answer, otherwise somebody else holds the slot. The insert runs through
 * `transact`, and `whileBooking` in the same transaction once the booking is stored (the
 * confirmation mail is queued there).
 */
export async function bookSlot(
  db: Kysely<Database>,
  transact: Transact,
  moment: ClinicMoment,
  defaults: BookingRules,
  patient: CurrentUser,
  request: BookingRequestBody,
  whileBooking: (tx: Kysely<Database>, booking: Booking) => Promise<void>,
): Promise<BookingOutcome> {
  if (!patient.emailVerified) throw new HttpError(403, bookingErrors.unverified);
  const { date } = request;
  const { rules, treatment } = await bookableSlot(
    db,
    moment,
    defaults,
    request.treatmentId,
    date,
    request.slot,
  );

  const candidates = await doctorsFor(db, treatment, date, request.doctorId);
  if (candidates?.length === 0) {
    // Not taken by anyone: no dentist who performs it works that day (a day off since the page).
    const message = bookingErrors.noDentistThatDay(treatment.name, formatMediumDate(date));
    return { booked: false, rule: 'slot', message };
  }

  const facts = newBookingRow({
    treatment_id: treatment.id,
    treatment_name: treatment.name,
    price_cents: treatment.priceCents,
    date,
    slot: request.slot,
    patient_id: patient.id,
    patient_email: patient.email,
    patient_name: patient.name,
    phone: request.phone.trim(),
    age: request.age,
  });
  // A conflict whose booking is cancelled before it can be read is retried once.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const booking = await transact(async (tx) => {
        if (facts.price_cents > 0) {
          await lockPatient(tx, patient.id);
          const unpaid = await countUnpaidUpcoming(tx, patient.id, moment.today);
          if (unpaid >= rules.maxUnpaidBookings) {
            throw new HttpError(409, bookingErrors.tooManyUnpaid(unpaid));
          }
        }
        await assertStillOffered(tx, treatment.id, facts.slot);
        const at = { date, treatmentId: treatment.id, slot: facts.slot };
        await assertChairFree(tx, at, candidates !== null);
        const stored = candidates
          ? await insertWithDoctor(tx, facts, candidates, request.doctorId != null)
          : facts;
        if (!candidates) await insertBooking(tx, stored);
        await recordAudit(tx, {
          actor: patientActor(patient),
          action: 'booking.created',
          subject: bookingSubject(stored),
          after: {
            status: stored.status,
            treatment: stored.treatment_name,
            date: stored.date,
            slot: stored.slot,
            priceCents: stored.price_cents,
            ...(stored.doctor_id !== null && {
              doctor: { id: stored.doctor_id, name: stored.doctor_name },
            }),
          },
        });
        await whileBooking(tx, stored);
        return stored;
      });
      return { booked: true, booking };
    } catch (error) {
      if (error instanceof SlotTaken) return { booked: false, rule: 'slot' };
      const rule = brokenBookingRule(error);
      if (!rule) throw error;
      const existing = await findPatientBooking(db, patient.id, treatment.id, date);
      if (existing) return { booked: false, rule: 'patient', existing };
      if (rule === 'slot' || rule === 'doctor') return { booked: false, rule: 'slot' };
      const overlapping = await findOverlappingBooking(db, patient.id, date, facts.slot);
      if (overlapping) return { booked: false, rule: 'overlap', existing: overlapping };
      if (attempt === 2) throw error;
    }
  }
}

/**
 * The booking rules for a treatment on a date, as the clinic states them: the date from today on
 * and within the booking horizon, the clinic open, the treatment one it offers. Throws a 400
 * saying which failed; answers the rules in force and the treatment. The waitlist joins by them.
 */
export async function bookableDate(
  db: Kysely<Database>,
  moment: ClinicMoment,
  defaults: BookingRules,
  treatmentId: string,
  date: IsoDate,
) {
  const calendar = await cachedClinicCalendar(db);
  // `defaults` are the environment's rules; the clinic's own stored rules replace them.
  const rules = calendar.storedRules ?? defaults;
  if (date < moment.today) throw new HttpError(400, bookingErrors.pastDate);
  const lastDate = addDays(moment.today, rules.horizonDays);
  if (date > lastDate) {
    throw new HttpError(
      400,
      bookingErrors.beyondHorizon(rules.horizonDays, formatMediumDate(lastDate)),
    );
  }
  const closed = closedReason(calendar, date);
  if (closed) throw new HttpError(400, clinicCalendarMessages.closed(closed));
  const treatment = await findTreatment(db, treatmentId);
  if (!treatment) throw new HttpError(400, bookingErrors.unknownTreatment);
  return { rules, treatment };
}

/**
 * The booking rules for a slot of a treatment on a date: those of `bookableDate`, and the slot
 * one the treatment offers, not started and not inside the minimum notice.
 */
async function bookableSlot(
  db: Kysely<Database>,
  moment: ClinicMoment,
  defaults: BookingRules,
  treatmentId: string,
  date: IsoDate,
  slot: string,
) {
  const { rules, treatment } = await bookableDate(db, moment, defaults, treatmentId, date);
  if (!treatment.slots.includes(slot)) {
    throw new HttpError(400, bookingErrors.slotNotOffered);
  }
  if (hasStarted(date, slot, moment)) throw new HttpError(400, bookingErrors.slotStarted);
  if (skippedOnClock(moment.timeZone, date, slot)) {
    throw new HttpError(400, bookingErrors.slotSkipped(formatMediumDate(date)));
  }
  if (startsWithin(date, slot, moment, rules.minNoticeMinutes)) {
    throw new HttpError(400, clinicCalendarMessages.minimumNotice(rules.minNoticeMinutes));
  }
  return { rules, treatment };
}

/**
 * The slot was taken first: by every doctor who could take it, or, for a treatment no doctor
 * performs, by a booking made while one did (a 409 'slot', as for a taken chair).
 */
class SlotTaken extends Error {
  override name = 'SlotTaken';
}

/** A transaction's lock on one slot's chair (PostgreSQL), by the date, treatment and slot. */
const CHAIR_LOCK = 'select pg_advisory_xact_lock(hashtextextended($1, 0))';

/**
 * A slot's chair is not shared across the treatment's change of mode (decision 020): a booking
 * without a doctor does not join one a doctor's booking holds (made while a doctor performed the
 * treatment), and a booking with a doctor does not join one a booking without a doctor holds
 * (made before the treatment had doctors), as availability does not offer either.
 */
async function assertChairFree(
  tx: Kysely<Database>,
  at: { date: IsoDate; treatmentId: string; slot: string; exceptId?: string },
  withDoctor: boolean,
): Promise<void> {
  // PostgreSQL: the check below reads committed rows only, so two bookings of opposite modes
  // (one made as the clinic assigned or removed a doctor) could each miss the other's, which no
  // unique index sees. One transaction at a time checks a slot's chair, until it ends; SQLite
  // writes one at a time already.
  if (tx.getExecutor().adapter instanceof PostgresAdapter) {
    await tx.executeQuery(
      CompiledQuery.raw(CHAIR_LOCK, [`${at.date}|${at.treatmentId}|${at.slot}`]),
    );
  }
  if (await slotHeld(tx, at, withDoctor ? 'without doctor' : 'with doctor')) throw new SlotTaken();
}

/** The slot is still one the treatment offers, in the booking's transaction (`stillOffers`). */
async function assertStillOffered(tx: Kysely<Database>, treatmentId: string, slot: string) {
  if (!(await stillOffers(tx, treatmentId, slot))) {
    throw new HttpError(409, bookingErrors.slotNotOffered);
  }
}

/**
 * The doctors a booking may be with, in the order they are tried: null when no doctor
 * performs the treatment (one chair, no doctor). With `doctorId`, that doctor, who must perform
 * the treatment and work that day (400 for an unknown doctor, 409 saying why not); otherwise
 * every doctor who performs it and works that day (its weekday, not a day off), by name:
 * an empty list when none does.
 */
async function doctorsFor(
  db: Kysely<Database>,
  treatment: { id: string; name: string },
  date: IsoDate,
  doctorId: string | null | undefined,
): Promise<Provider[] | null> {
  const performers = (await listProviders(db)).filter(
    (provider) => provider.treatmentId === treatment.id,
  );
  const off = await doctorsOffOn(db, date);
  const weekday = weekdayOf(date);
  const atWork = (provider: Provider) =>
    provider.workDays.includes(weekday) && !off.has(provider.id);
  if (doctorId == null) return performers.length === 0 ? null : performers.filter(atWork);
  const chosen = performers.find((provider) => provider.id === doctorId);
  if (!chosen) {
    const doctor = await findDoctor(db, doctorId);
    if (!doctor) throw new HttpError(400, bookingErrors.unknownDoctor);
    throw new HttpError(409, bookingErrors.doctorNotQualified(doctor.name, treatment.name));
  }
  if (!atWork(chosen)) {
    throw new HttpError(409, bookingErrors.doctorNotWorking(chosen.name, formatMediumDate(date)));
  }
  return [chosen];
}

// A doctor's try's savepoint, written once (as group-commit.ts writes its own).
const DOCTOR_PICK = CompiledQuery.raw('savepoint "doctor_pick"');
const ROLLBACK_TO_DOCTOR_PICK = CompiledQuery.raw('rollback to savepoint "doctor_pick"');
const RELEASE_DOCTOR_PICK = CompiledQuery.raw('release savepoint "doctor_pick"');

/**
 * Stores the booking with the first of `candidates` who is free for its whole time, in the
 * caller's transaction: each try runs under a savepoint, and a unique violation of the doctor's
 * units (or of the doctor's slot) means another booking took that doctor first, so the next is
 * tried. Any other violation (the patient's own rules) ends the booking. None left: SlotTaken,
 * or, for a doctor the patient chose, a 409 saying that doctor is not free.
 */
async function insertWithDoctor(
  tx: Kysely<Database>,
  facts: Booking,
  candidates: Provider[],
  chosen: boolean,
): Promise<Booking> {
  const busy = await doctorsBusyDuring(tx, facts.date, facts.slot);
  for (const candidate of candidates) {
    if (busy.has(candidate.id)) continue;
    const booking: Booking = { ...facts, doctor_id: candidate.id, doctor_name: candidate.name };
    await tx.executeQuery(DOCTOR_PICK);
    try {
      await insertBooking(tx, booking);
      await tx.executeQuery(RELEASE_DOCTOR_PICK);
      return booking;
    } catch (error) {
      await tx.executeQuery(ROLLBACK_TO_DOCTOR_PICK);
      await tx.executeQuery(RELEASE_DOCTOR_PICK);
      const rule = brokenBookingRule(error);
      if (rule !== 'doctor' && rule !== 'slot') throw error;
    }
  }
  const [only] = candidates;
  if (chosen && only) throw new HttpError(409, bookingErrors.doctorBusy(only.name, facts.slot));
  throw new SlotTaken();
}

/** What became of a booking's payment when its patient asked to cancel it. */
export type PaymentRelease = 'released' | 'paid' | 'processing';

/**
 * The cancellation policy: a patient cancels their own booked or confirmed booking, paid or not,
 * until the clinic's cancellation notice before its start, unless they moved it inside that
 * notice (`isCancellable`). A paid booking is refunded through the provider by the clinic's
 * cancellation's own path (`cancelWithRefund`): the refund is made and recorded with the
 * cancellation, the patient mailed with both, the 'cancelled' event told through `deps.events`.
 * After the deadline, or after a late move, 409 with the clinic's phone.
 * `caller` is the signed-in patient, or one standing for the booking's patient (a mail link).
 */
export async function cancelBooking(
  deps: CancelDeps & { clinicPhone: string },
  moment: ClinicMoment,
  caller: CurrentUser,
  id: string,
): Promise<CancelOutcome> {
  const booking = await findBooking(deps.db, id);
  if (!booking) throw new HttpError(404, bookingErrors.noSuchBooking);
  if (!isOwnBooking(caller, booking)) throw new HttpError(403, bookingErrors.notYourBooking);
  if (booking.status === 'cancelled') throw new HttpError(409, bookingErrors.alreadyCancelled);
  if (!isLive(booking, moment)) throw new HttpError(409, bookingErrors.started);
  if (booking.moved_late_at !== null) {
    throw new HttpError(409, clinicCalendarMessages.movedLate(deps.clinicPhone));
  }
  const { cancellationNoticeHours } = await bookingRulesOf(deps.db);
  if (!isCancellable(booking, moment, cancellationNoticeHours)) {
    throw new HttpError(
      409,
      clinicCalendarMessages.cancellationNotice(cancellationNoticeHours, deps.clinicPhone),
    );
  }
  const reason = 'Cancelled by the patient';
  return cancelWithRefund(deps, {
    booking,
    by: caller.id,
    actor: patientActor(caller),
    cancelledBy: 'patient',
    reason,
    refundReason: 'Refunded because the patient cancelled in time',
    refusals: patientCancelRefusals(deps.clinicPhone),
  });
}

/** `POST /api/booking/{id}/reschedule`'s body as the request schema decoded it. */
export type RescheduleRequestBody = z.output<typeof rescheduleRequestSchema>;

/** What a reschedule did: the booking as it was, and as it is now. */
export interface Rescheduled {
  before: Booking;
  booking: Booking;
}

/**
 * Moves one of the caller's own live bookings (booked or confirmed, not started) to another
 * date or slot of the same treatment, in place: the same row keeps its id, its payment and its
 * status; its calendar SEQUENCE goes one up. The new date and slot meet the same rules as a new
 * booking's (`bookableSlot`), and the doctor is chosen as for one (`doctorId`, else the
 * booking's own doctor when free, else any free doctor who performs the treatment). All of it
 * runs in one transaction through `transact`, the booking's row locked: its old time is given
 * back and the new time taken in the same transaction, so the unique indexes decide races as
 * for a new booking, and a refusal rolls everything back (the booking keeps its old slot).
 * `whileMoving` runs in that transaction once the booking has moved (the updated confirmation
 * is queued there). Throws an HttpError saying why not: 404 for no such booking, 403 for
 * someone else's, 409 for one cancelled, started, passed or taken meanwhile ('slot taken' when
 * the new time is held), 400 for the same date and slot, or a rule broken.
 */
export async function rescheduleBooking(
  db: Kysely<Database>,
  transact: Transact,
  moment: ClinicMoment,
  defaults: BookingRules,
  caller: CurrentUser,
  id: string,
  request: RescheduleRequestBody,
  whileMoving: (tx: Kysely<Database>, moved: Rescheduled) => Promise<void>,
): Promise<Rescheduled> {
  const current = await findBooking(db, id);
  if (!current) throw new HttpError(404, bookingErrors.noSuchBooking);
  if (!isOwnBooking(caller, current)) throw new HttpError(403, bookingErrors.notYourBookingToMove);
  if (current.status === 'cancelled') throw new HttpError(409, bookingErrors.alreadyCancelled);
  assertMovable(current, moment);
  const { date, slot } = request;
  if (date === current.date && slot === current.slot && request.doctorId == null) {
    throw new HttpError(400, bookingErrors.nothingToChange);
  }
  const { treatment } = await bookableSlot(db, moment, defaults, current.treatment_id, date, slot);
  const { cancellationNoticeHours } = await bookingRulesOf(db);
  const found = await doctorsFor(db, treatment, date, request.doctorId);
  // The booking's own doctor first, when free: a move keeps the patient with their dentist.
  const candidates = found && [
    ...found.filter((doctor) => doctor.id === current.doctor_id),
    ...found.filter((doctor) => doctor.id !== current.doctor_id),
  ];
  if (candidates?.length === 0) {
    throw new HttpError(
      409,
      bookingErrors.noDentistThatDay(treatment.name, formatMediumDate(date)),
    );
  }

  try {
    return await transact(async (tx) => {
      // The patient's moves one at a time (as their bookings are): two moves of theirs that
      // swap times would otherwise deadlock on each other's units (PostgreSQL).
      await lockPatient(tx, caller.id);
      const before = await lockBooking(tx, id);
      if (!before) throw new HttpError(404, bookingErrors.noSuchBooking);
      if (!isOwnBooking(caller, before)) {
        throw new HttpError(403, bookingErrors.notYourBookingToMove);
      }
      if (before.status === 'cancelled') {
        throw new HttpError(409, bookingErrors.alreadyCancelled);
      }
      assertMovable(before, moment);
      const unchanged =
        before.date === date &&
        before.slot === slot &&
        (candidates === null || candidates[0]?.id === before.doctor_id);
      if (unchanged) throw new HttpError(400, bookingErrors.nothingToChange);
      // Moved inside the notice, it is no longer cancelled online: else a late cancellation
      // would pass for a free one once moved out of the notice.
      const late = startsWithin(before.date, before.slot, moment, cancellationNoticeHours * 60);
      const to = {
        date,
        slot,
        moved_late_at: before.moved_late_at ?? (late ? new Date(moment.at).toISOString() : null),
      };
      await assertStillOffered(tx, before.treatment_id, slot);
      await releaseBookingUnits(tx, id);
      await assertChairFree(
        tx,
        { date, treatmentId: before.treatment_id, slot, exceptId: id },
        candidates !== null,
      );
      const booking = candidates
        ? await moveWithDoctor(tx, before, to, candidates, request.doctorId != null)
        : await moveBooking(tx, id, { ...to, doctor_id: null, doctor_name: null });
      if (!booking) throw new HttpError(409, bookingErrors.notMovable);
      await recordAudit(tx, {
        actor: patientActor(caller),
        action: 'booking.rescheduled',
        subject: bookingSubject(booking),
        before: {
          date: before.date,
          slot: before.slot,
          ...(before.doctor_id !== null && {
            doctor: { id: before.doctor_id, name: before.doctor_name },
          }),
        },
        after: {
          date: booking.date,
          slot: booking.slot,
          ...(booking.doctor_id !== null && {
            doctor: { id: booking.doctor_id, name: booking.doctor_name },
          }),
        },
      });
      await whileMoving(tx, { before, booking });
      return { before, booking };
    });
  } catch (error) {
    if (error instanceof SlotTaken) throw new HttpError(409, messages.slotTaken);
    const rule = brokenBookingRule(error);
    if (!rule) throw error;
    if (rule === 'slot' || rule === 'doctor') throw new HttpError(409, messages.slotTaken);
    const mediumDate = formatMediumDate(date);
    if (rule === 'patient') {
      const existing = await findPatientBooking(db, caller.id, current.treatment_id, date);
      throw new HttpError(
        409,
        messages.bookingConflict(formatMediumDate(existing?.date ?? date), existing?.slot ?? slot),
      );
    }
    const overlapping = await findOverlappingBooking(db, caller.id, date, slot);
    throw new HttpError(
      409,
      overlapping
        ? bookingErrors.overlap(overlapping.treatment_name, mediumDate, overlapping.slot)
        : messages.slotTaken,
    );
  }
}

/** A booking may be moved while it is booked or confirmed and has not started (409 otherwise). */
function assertMovable(booking: Booking, moment: ClinicMoment): void {
  if (!isLive(booking, moment)) throw new HttpError(409, bookingErrors.notMovable);
}

/**
 * Moves the booking to the first of `candidates` free for the whole new time, in the caller's
 * transaction, each try under a savepoint (as `insertWithDoctor` does for a new booking).
 */
async function moveWithDoctor(
  tx: Kysely<Database>,
  booking: Booking,
  to: Omit<BookingMove, 'doctor_id' | 'doctor_name'>,
  candidates: Provider[],
  chosen: boolean,
): Promise<Booking | undefined> {
  const busy = await doctorsBusyDuring(tx, to.date, to.slot);
  for (const candidate of candidates) {
    if (busy.has(candidate.id)) continue;
    await sql`savepoint doctor_move`.execute(tx);
    try {
      const moved = await moveBooking(tx, booking.id, {
        ...to,
        doctor_id: candidate.id,
        doctor_name: candidate.name,
      });
      await sql`release savepoint doctor_move`.execute(tx);
      return moved;
    } catch (error) {
      await sql`rollback to savepoint doctor_move`.execute(tx);
      await sql`release savepoint doctor_move`.execute(tx);
      const rule = brokenBookingRule(error);
      if (rule !== 'doctor' && rule !== 'slot') throw error;
    }
  }
  const [only] = candidates;
  if (chosen && only) throw new HttpError(409, bookingErrors.doctorBusy(only.name, to.slot));
  throw new SlotTaken();
}
