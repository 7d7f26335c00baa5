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

/**
 * After the clinic changed its reminder lead, in the change's transaction: each reminder still
 * waiting in the queue becomes due at the new lead before its visit, or at once when that moment
 * has passed (its visit is still to come). One being sent or retried is left to the queue; a
 * booking whose reminder went already, or that got none, gets none.
 */
export async function moveReminders(
  tx: Kysely<Database>,
  timeZone: string,
  leadHours: number,
): Promise<void> {
  const now = clock.now();
  const waiting = await tx
    .selectFrom('mail_queue')
    .innerJoin('booking', 'booking.id', 'mail_queue.booking_id')
    .select(['mail_queue.id', 'booking.date', 'booking.slot'])
    .where('mail_queue.kind', '=', 'booking-reminder')
    .where('mail_queue.attempts', '=', 0)
    .where('mail_queue.send_after', '>', now.toISOString())
    .execute();
  for (const row of waiting) {
    const due = reminderMoment(timeZone, row.date, row.slot, leadHours);
    if (!due) continue;
    await tx
      .updateTable('mail_queue')
      .set({ send_after: new Date(Math.max(due.getTime(), now.getTime())).toISOString() })
      .where('id', '=', row.id)
      // Taken by a sender meanwhile (PostgreSQL): its attempt counts, and it is the queue's.
      .where('attempts', '=', 0)
      .execute();
  }
}
