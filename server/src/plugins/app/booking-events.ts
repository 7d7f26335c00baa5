import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type BookingEvents, bookingEvents } from '../../bookings/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What became of each booking, told in the transaction that did it (bookings/events.ts). */
    bookingEvents: BookingEvents;
  }
}

/** Where the domains that follow a booking's life (reminders, the waitlist) hear of it. */
export const bookingEventsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('bookingEvents', bookingEvents());
  },
  { name: 'booking-events' },
);
