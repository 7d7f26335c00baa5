import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config/env.js';

/** A calendar event carried by a message (a text/calendar part and an .ics attachment). */
export interface CalendarInvite {
  filename: string;
  method: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /** The VCALENDAR text (see ./ics.ts). */
  content: string;
}

export interface MailAttachment {
  filename: string;
  content: string | Buffer;
  contentType?: string;
}

/** What a template produces: everything of a message but its recipient. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  icalEvent?: CalendarInvite;
  /** Where replies go, when not to the clinic (e.g. the visitor who wrote to it). */
  replyTo?: string;
  /**
   * The Message-ID, when a message must keep one across attempts ('<…@domain>'): a reminder sent
   * twice after a crash then arrives as the same message (docs/decisions/022).
   */
  messageId?: string;
}

export interface MailMessage extends MailContent {
  /** One recipient address, e.g. 'patient@example.com' or 'Jane Doe <patient@example.com>'. */
  to: string;
}

type LogFn = (object: Record<string, unknown>, message: string) => void;

/** The part of a pino / Fastify logger the mailer uses. */
export interface MailLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
}

export interface Mailer {
  readonly transport: Config['mail']['transport'];
  /** Where mail goes, without secrets: 'SMTP at mail.example.com:587' or 'outbox at /…/outbox'. */
  readonly description: string;
  /** Delivers one message; rejects with a MailDeliveryError when it could not be delivered. */
  send(message: MailMessage): Promise<void>;
  /** Releases the transport's connections. */
  close(): void;
}

/** A message could not be handed to the SMTP server or written to the outbox. One line. */
export class MailDeliveryError extends Error {
  override name = 'MailDeliveryError';
}

export type MailerConfig = Pick<Config, 'env' | 'mail' | 'clinic'>;

const silent: MailLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** The first http(s) link of a text, e.g. the verification link of a verification mail. */
export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"')\]]+/.exec(text)?.[0];
}

/**
 * The message as nodemailer takes it: a reply address or Message-ID is passed only when given,
 * so that the transport's default reply address (the clinic's) and a new Message-ID apply.
 */
function nodemailerMessage({ replyTo, messageId, ...message }: MailMessage) {
  return { ...message, ...(replyTo ? { replyTo } : {}), ...(messageId ? { messageId } : {}) };
}

function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Sends the portal's mail: over SMTP when SMTP_URL is set, otherwise into an outbox folder
 * (one RFC 822 .eml file per message) with the message's first link logged, so that a local
 * user can follow verification and reset links. Over SMTP no link is ever logged.
 */
export function createMailer(config: MailerConfig, logger: MailLogger = silent): Mailer {
  const defaults = { from: config.mail.from, replyTo: config.clinic.email };
  if (config.mail.transport === 'smtp') return smtpMailer(config.mail.url, defaults, logger);
  return outboxMailer(config.mail.dir, defaults, config.env === 'production', logger);
}

function smtpMailer(
  url: string,
  defaults: { from: string; replyTo: string },
  logger: MailLogger,
): Mailer {
  const { hostname, port, protocol } = new URL(url);
  const where = `${hostname}:${port || (protocol === 'smtps:' ? 465 : 587)}`;
  const transporter = nodemailer.createTransport(
    // Fail in seconds rather than the library's minutes: a request may be waiting.
    { url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    defaults,
  );
  return {
    transport: 'smtp',
    description: `SMTP at ${where}`,
    async send(message) {
      let messageId: string;
      try {
        ({ messageId } = await transporter.sendMail(nodemailerMessage(message)));
      } catch (error) {
        throw new MailDeliveryError(
          `Could not send "${message.subject}" over SMTP at ${where}: ${reasonOf(error)}`,
          { cause: error },
        );
      }
      // Logged on the event loop's next turn, so that what the caller does first once the relay
      // has the message (the queue's delete of it, docs/decisions/022) is not kept waiting.
      setImmediate(() =>
        logger.info({ mail: { subject: message.subject, messageId } }, 'mail sent over SMTP'),
      );
    },
    close() {
      transporter.close();
    },
  };
}

let sequence = 0;

/** '20260105T100000123Z-000001-9f2c4a1b.eml': sorts by creation time, never collides. */
function outboxFileName(now: Date): string {
  sequence = (sequence + 1) % 1_000_000;
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.eml`;
}

function outboxMailer(
  dir: string,
  defaults: { from: string; replyTo: string },
  production: boolean,
  logger: MailLogger,
): Mailer {
  const transporter = nodemailer.createTransport(
    { streamTransport: true, buffer: true, newline: 'windows' },
    defaults,
  );
  if (production) {
    logger.warn(
      { mail: { outbox: dir } },
      `SMTP_URL is not set: mail is written to ${dir} and not delivered`,
    );
  }
  return {
    transport: 'outbox',
    description: `outbox at ${dir}`,
    async send(message) {
      const file = path.join(dir, outboxFileName(new Date()));
      try {
        const info = await transporter.sendMail(nodemailerMessage(message));
        await fs.mkdir(dir, { recursive: true });
        // Written aside, then renamed: a reader of the outbox never sees half a message.
        await fs.writeFile(`${file}.partial`, info.message as Buffer, { mode: 0o600 });
        await fs.rename(`${file}.partial`, file);
      } catch (error) {
        await fs.rm(`${file}.partial`, { force: true }).catch(() => {});
        throw new MailDeliveryError(
          `Could not write "${message.subject}" to the outbox ${dir}: ${reasonOf(error)}`,
          { cause: error },
        );
      }
      // Locally the link is the point of the outbox; a production log never carries tokens.
      const link = production ? undefined : firstLink(message.text);
      logger.info(
        { mail: { to: message.to, subject: message.subject, file, ...(link ? { link } : {}) } },
        link
          ? `mail to ${message.to} written to the outbox; open ${link}`
          : `mail to ${message.to} written to the outbox`,
      );
    },
    close() {
      transporter.close();
    },
  };
}
