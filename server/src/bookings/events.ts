import type { Kysely } from 'kysely';
import type { Booking, Database } from '../db/schema.js';

/**
 * What became of a booking, told in the transaction that did it: what follows from it (a
 * reminder to send or withdraw, waiting patients to tell of a freed slot) is written in the
 * same transaction, so that it exists if and only if the change was committed.
 */
export type BookingChange =
  | { kind: 'booked'; booking: Booking }
  /** Moved to another date, slot or doctor: `before` is the row as it was. */
  | { kind: 'moved'; before: Booking; booking: Booking }
  /** `booking` is the row as it was before it was cancelled (its slot is free now). */
  | { kind: 'cancelled'; booking: Booking }
  /**
   * Kept on the clinic's records after its patient removed their account (decision 013): it
   * holds its slot, but nothing more is mailed for it. `booking` is the row as it is now.
   */
  | { kind: 'patient-left'; booking: Booking };

export type BookingListener = (tx: Kysely<Database>, change: BookingChange) => Promise<void>;

export interface BookingEvents {
  /** Runs `listener` in the transaction of every change from now on, in the order added. */
  on(listener: BookingListener): void;
  /** Tells every listener of `change`, in `tx`; a listener that throws fails the change. */
  emit(tx: Kysely<Database>, change: BookingChange): Promise<void>;
}

/** One app's listeners (each app has its own: tests build several apps in one process). */
export function bookingEvents(): BookingEvents {
  const listeners: BookingListener[] = [];
  return {
    on(listener) {
      listeners.push(listener);
    },
    async emit(tx, change) {
      for (const listener of listeners) await listener(tx, change);
    },
  };
}
