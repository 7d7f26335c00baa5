import { paths } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../mail/mailer.js';
import { type MailQueue, mailQueue } from '../../mail/queue.js';
import { scheduleReminders } from '../../mail/reminders.js';
import { mailActionLinks } from '../../visits/mail-links.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    mailQueue: MailQueue;
  }
}

/**
 * Outgoing mail: the mailer (SMTP, or the outbox folder) and the queue that sends what the
 * requests wrote into the database, at the relay's pace (mail/queue.ts). On close the queue
 * finishes the message in hand, then the mailer lets its connections go.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const { config } = app;
    const mailer = createMailer(config, app.log);
    const queue = mailQueue({
      db: app.db,
      engine: app.database.engine,
      mailer,
      clinic: config.clinic,
      appointmentsUrl: `${config.publicUrl}${paths.dashboard}`,
      messagesUrl: `${config.publicUrl}${paths.messages}`,
      ratePerSecond: config.mail.ratePerSecond,
      log: app.log,
      actionLinks: mailActionLinks(config),
    });
    scheduleReminders(app.bookingEvents, queue, app.db, config.clinic.timeZone);
    app.decorate('mailer', mailer);
    app.decorate('mailQueue', queue);
    app.addHook('onClose', async () => {
      await queue.close();
      mailer.close();
    });
  },
  { name: 'mail', dependencies: ['config', 'database', 'booking-events'] },
);
