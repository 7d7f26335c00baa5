import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test server accepted, parsed, with its SMTP envelope and raw bytes. */
export type ReceivedMail = ParsedMail & {
  envelope: { from: string; to: string[] };
  /** The message exactly as it came over the wire (CRLF line endings). */
  raw: Buffer;
};

export interface TestSmtpServerOptions {
  /** Require these credentials (smtp://user:pass@…); by default any login, or none, is accepted. */
  auth?: { user: string; pass: string };
}

export interface TestSmtpServer {
  /** 'smtp://127.0.0.1:<port>', ready for SMTP_URL (add credentials when `auth` is set). */
  url: string;
  port: number;
  /** Every accepted message, in order of arrival. */
  messages: ReceivedMail[];
  /**
   * The earliest received message that matches, waiting for one to arrive when none does yet;
   * rejects after `timeoutMs` naming what did arrive.
   */
  waitForMail(
    predicate?: (mail: ReceivedMail) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedMail>;
  /** Forgets the messages received so far. */
  clear(): void;
  /** Refuses the next `count` messages with a temporary failure (451), as a relay under load. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

interface Waiter {
  predicate: (mail: ReceivedMail) => boolean;
  resolve: (mail: ReceivedMail) => void;
}

/** The text of every address in a To/Cc header, e.g. ['patient@example.com']. */
export function recipientsOf(mail: ParsedMail): string[] {
  const fields = [mail.to ?? []].flat();
  return fields.flatMap((field) => field.value.map((address) => address.address ?? ''));
}

/**
 * A real SMTP server (the `smtp-server` package) on an ephemeral loopback port that keeps every
 * message it receives, parsed by mailparser. Plain text only: STARTTLS is disabled, which is fine
 * on loopback. Used by unit, API and end-to-end tests alike.
 */
export async function startTestSmtpServer(
  options: TestSmtpServerOptions = {},
): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let waiters: Waiter[] = [];
  let refusals = 0;

  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    // close() waits this long for a client that keeps its connection (a pooled transport).
    closeTimeout: 1_000,
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const wanted = options.auth;
      if (wanted && (auth.username !== wanted.user || auth.password !== wanted.pass)) {
        callback(new Error('Invalid username or password'));
        return;
      }
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (refusals > 0) {
          refusals -= 1;
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            const mail: ReceivedMail = Object.assign(parsed, {
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((recipient) => recipient.address),
              },
              raw,
            });
            messages.push(mail);
            const matched = waiters.filter((waiter) => waiter.predicate(mail));
            waiters = waiters.filter((waiter) => !matched.includes(waiter));
            for (const waiter of matched) waiter.resolve(mail);
            callback();
          },
          (error: unknown) => callback(error as Error),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors of single connections (a client hanging up) must not crash the test run.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMail(predicate = () => true, timeoutMs = 5_000) {
      const found = messages.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters = waiters.filter((other) => other !== waiter);
          const seen = messages.map((mail) => JSON.stringify(mail.subject ?? '')).join(', ');
          reject(
            new Error(
              `No matching mail arrived at ${`127.0.0.1:${port}`} within ${timeoutMs} ms ` +
                `(received ${messages.length}${seen ? `: ${seen}` : ''})`,
            ),
          );
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    clear() {
      messages.length = 0;
    },
    refuseNext(count) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
