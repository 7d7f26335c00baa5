import type { FastifyInstance } from 'fastify';
import { auditRoutes } from './audit/routes.js';
import { authRoutes } from './auth/routes.js';
import { bookingRoutes } from './bookings/routes.js';
import { clinicCalendarRoutes } from './clinic/calendar-routes.js';
import { clinicRoutes } from './clinic/routes.js';
import { contactRoutes } from './contact/routes.js';
import { calendarFeedRoutes } from './doctors/calendar-feed.js';
import { doctorRoutes } from './doctors/routes.js';
import { healthRoutes } from './health/routes.js';
import { errorBody } from './http/errors.js';
import { imageRoutes } from './images/routes.js';
import { mailRoutes } from './mail/routes.js';
import { paymentRoutes } from './payments/routes.js';
import { scheduleRoutes } from './schedule/routes.js';
import { treatmentRoutes } from './treatments/routes.js';
import { accountRoutes } from './users/account-routes.js';
import { userRoutes } from './users/routes.js';
import { visitRoutes } from './visits/routes.js';
import { waitlistRoutes } from './waitlist/routes.js';

/**
 * The API, registered under `/api`: one routes file per address prefix (README, Architecture),
 * and a JSON 404 for any other address under it.
 */
export async function apiRoutes(api: FastifyInstance) {
  if (api.config.benchBareRoute) {
    // The ceiling of `npm run bench`: a route that does nothing, behind the same hooks.
    api.get('/bench/bare', { schema: { hide: true } }, async () => ({ hello: 'world' }));
  }
  await api.register(healthRoutes);
  await api.register(clinicRoutes);
  await api.register(clinicCalendarRoutes);
  await api.register(authRoutes);
  await api.register(treatmentRoutes);
  await api.register(bookingRoutes);
  await api.register(paymentRoutes);
  await api.register(scheduleRoutes);
  await api.register(userRoutes);
  await api.register(accountRoutes);
  await api.register(doctorRoutes);
  await api.register(calendarFeedRoutes);
  await api.register(imageRoutes);
  await api.register(auditRoutes);
  await api.register(contactRoutes);
  await api.register(mailRoutes);
  await api.register(visitRoutes);
  await api.register(waitlistRoutes);
  api.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(errorBody(404, `No API route for ${request.method} ${request.url.split('?', 1)[0]}`)),
  );
}
