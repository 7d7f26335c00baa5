import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTimeZone } from '@doctors-portal/contract';
import { z } from 'zod';
import { StartupError } from '../startup-error.js';

/** The repository root: relative paths in the configuration are resolved from here. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const port = z.coerce
  .number({ error: 'must be a whole number from 1 to 65535' })
  .int('must be a whole number from 1 to 65535')
  .min(1, 'must be a whole number from 1 to 65535')
  .max(65535, 'must be a whole number from 1 to 65535');

const postgresUrl = z
  .string()
  .refine((value) => /^postgres(ql)?:\/\/\S+$/.test(value) && URL.canParse(value), {
    error: 'must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR)',
  });

const httpUrl = z
  .string()
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
    error: 'must be an http:// or https:// URL',
  })
  .transform((value) => value.replace(/\/+$/, ''));

const smtpUrl = z
  .string()
  .refine(
    (value) =>
      /^smtps?:\/\/\S+$/.test(value) && URL.canParse(value) && new URL(value).hostname !== '',
    { error: 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587' },
  );

// 'no-reply@clinic.example' or 'Clinic Name <no-reply@clinic.example>'.
const MAILBOX = /^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;
const mailbox = z.string().refine((value) => MAILBOX.test(value.trim()), {
  error: 'must be an email address, optionally with a name: Clinic <no-reply@clinic.example>',
});

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: port.default(3000),
  PUBLIC_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: postgresUrl.optional(),
  CLINIC_NAME: z.string().min(1).default('Doctors Portal'),
  CLINIC_PHONE: z.string().min(1).default('+1 (555) 010-2030'),
  CLINIC_ADDRESS: z.string().min(1).default('120 Harbor Street, Springfield'),
  CLINIC_EMAIL: z.email({ error: 'must be an email address' }).default('hello@doctors-portal.test'),
  CLINIC_TIMEZONE: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA time zone such as America/New_York' })
    .default('America/New_York'),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailbox.optional(),
  AUTH_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (for example: openssl rand -base64 48)')
    .optional(),
  TRUSTED_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(httpUrl, { error: 'must be a comma-separated list of http(s):// origins' }))
    .optional(),
  TRUST_PROXY: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email({ error: 'must be a comma-separated list of email addresses' })))
    .optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  GOOGLE_ISSUER: httpUrl.default('https://accounts.google.com'),
  REDIS_URL: z
    .string()
    .refine((value) => /^rediss?:\/\/\S+$/.test(value) && URL.canParse(value), {
      error: 'must be a redis:// or rediss:// URL',
    })
    .optional(),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  dataDir: string;
  database: { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string };
  clinic: { name: string; phone: string; address: string; email: string; timeZone: string };
  /** SMTP when SMTP_URL is set; otherwise every message is written to an outbox folder. */
  mail: ({ transport: 'smtp'; url: string } | { transport: 'outbox'; dir: string }) & {
    from: string;
  };
  auth: {
    /** Unset: a secret generated at first start and kept in DATA_DIR (see auth/secret.ts). */
    secret: string | undefined;
    trustedOrigins: string[];
    /** Whether X-Forwarded-For names the client (only behind a proxy that sets it). */
    trustProxy: boolean;
    adminEmails: string[];
    google: { clientId: string; clientSecret: string; issuer: string } | null;
  };
  /** Shared rate-limit counters for several instances; the database keeps them otherwise. */
  redisUrl: string | undefined;
}

/** Thrown when the environment cannot start the portal; its message is one line. */
export class ConfigError extends StartupError {
  override name = 'ConfigError';
}

/** Reads and validates the environment. Throws a ConfigError naming the first bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set", as in most .env conventions.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const value = cleaned[name];
    // A URL's password is never repeated in the message.
    const shown = value?.replace(/^([a-z][a-z\d+.-]*:\/\/[^/:@\s]*:)[^@/\s]*@/i, '$1***@');
    const got = shown === undefined ? '' : ` (got ${JSON.stringify(shown)})`;
    throw new ConfigError(`${name} ${issue?.message ?? 'is invalid'}${got}`);
  }
  const env = parsed.data;
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET)) {
    const missing = env.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID';
    throw new ConfigError(
      `${missing} must be set too: Google sign-in needs both its client id and secret`,
    );
  }
  const dataDir = path.resolve(ROOT_DIR, env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    logLevel: env.LOG_LEVEL,
    dataDir,
    database: env.DATABASE_URL
      ? { engine: 'postgres', url: env.DATABASE_URL }
      : { engine: 'sqlite', file: path.join(dataDir, 'portal.db') },
    clinic: {
      name: env.CLINIC_NAME,
      phone: env.CLINIC_PHONE,
      address: env.CLINIC_ADDRESS,
      email: env.CLINIC_EMAIL,
      timeZone: env.CLINIC_TIMEZONE,
    },
    mail: {
      ...(env.SMTP_URL
        ? { transport: 'smtp' as const, url: env.SMTP_URL }
        : { transport: 'outbox' as const, dir: path.join(dataDir, 'outbox') }),
      from: env.MAIL_FROM?.trim() ?? defaultSender(env.CLINIC_NAME, env.CLINIC_EMAIL),
    },
    auth: {
      secret: env.AUTH_SECRET,
      trustedOrigins: env.TRUSTED_ORIGINS ?? [],
      trustProxy: env.TRUST_PROXY === 'true',
      adminEmails: env.ADMIN_EMAILS ?? [],
      google:
        env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
          ? {
              clientId: env.GOOGLE_CLIENT_ID,
              clientSecret: env.GOOGLE_CLIENT_SECRET,
              issuer: env.GOOGLE_ISSUER,
            }
          : null,
    },
    redisUrl: env.REDIS_URL,
  };
}

/** '"Doctors Portal" <no-reply@doctors-portal.test>': the clinic's name at its own mail domain. */
function defaultSender(clinicName: string, clinicEmail: string): string {
  const domain = clinicEmail.slice(clinicEmail.lastIndexOf('@') + 1);
  return `"${clinicName.replace(/["\\\r\n]/g, '')}" <no-reply@${domain}>`;
}
