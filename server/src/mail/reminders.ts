import { type IsoDate, slotStartMinutes } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { clinicInstant, clock } from '../bookings/clock.js';
import type { BookingEvents } from '../bookings/events.js';
import { bookingSummary } from '../bookings/presenters.js';
import { bookingRulesWithin } from '../clinic/calendar.js';
import type { Booking, Database } from '../db/schema.js';
import type { MailQueue } from './queue.js';

/**
 * When a visit's reminder is due: its start on the clinic's wall clock, less the lead counted on
 * that wall clock (a 10:00 visit is reminded at 10:00 the day before with a 24-hour lead, also
 * across a daylight-saving change), as an instant. Null for a slot label that names no time.
 */
export function reminderMoment(
  timeZone: string,
  date: IsoDate,
  slot: string,
  leadHours: number,
): Date | null {
  const start = slotStartMinutes(slot);
  // clinicInstant counts minutes from the date's midnight, before it when negative.
  return start === null ? null : clinicInstant(timeZone, date, start - leadHours * 60);
}

/**
 * Keeps each live booking's reminder in the mail queue, in the transaction of every change: a
 * booking gets one due at its reminder moment (none once that moment has passed: its
 * confirmation carries the same links), a move replaces it, a cancellation withdraws it.
 * `db` is the app's database, whose clinic rules (the reminder lead) are read.
 */
export function scheduleReminders(
  events: BookingEvents,
  queue: MailQueue,
  db: Kysely<Database>,
  timeZone: string,
): void {
  async function remind(tx: Kysely<Database>, booking: Booking) {
    const { reminderLeadHours } = await bookingRulesWithin(tx, db);
    const due = reminderMoment(timeZone, booking.date, booking.slot, reminderLeadHours);
    if (!due || due.getTime() <= clock.now().getTime()) return;
    const summary = { ...bookingSummary(booking), id: booking.id };
    await queue.add(
      tx,
      { kind: 'booking-reminder', to: booking.patient_email, booking: summary },
      { sendAfter: due, bookingId: booking.id },
    );
  }

  events.on(async (tx, change) => {
    switch (change.kind) {
      case 'booked':
        return remind(tx, change.booking);
      case 'moved':
        await queue.withdrawReminder(tx, change.booking.id);
        return remind(tx, change.booking);
      case 'cancelled':
      case 'patient-left':
        return queue.withdrawReminder(tx, change.booking.id);
    }
  });
}
