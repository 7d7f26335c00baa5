import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTimeZone } from '@doctors-portal/contract';
import { z } from 'zod';
import { TIMEOUTS, type Timeouts } from '../http/timeouts.js';
import { StartupError } from '../startup-error.js';

/** The repository root: relative paths in the configuration are resolved from here. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const port = z.coerce
  .number({ error: 'must be a whole number from 1 to 65535' })
  .int('must be a whole number from 1 to 65535')
  .min(1, 'must be a whole number from 1 to 65535')
  .max(65535, 'must be a whole number from 1 to 65535');

const mailRate = z.coerce
  .number({ error: 'must be a number of messages a second, from 0.1 to 1000' })
  .min(0.1, 'must be a number of messages a second, from 0.1 to 1000')
  .max(1000, 'must be a number of messages a second, from 0.1 to 1000');

/** A whole number of `unit` from `min` to `max`. */
const wholeNumber = (min: number, max: number, unit: string) => {
  const error = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z.coerce.number({ error }).int(error).min(min, error).max(max, error);
};

/** A number of seconds from `min` to `max` (fractions allowed), read as milliseconds. */
const seconds = (min: number, max: number) => {
  const error = `must be a number of seconds from ${min} to ${max}`;
  return z.coerce
    .number({ error })
    .min(min, error)
    .max(max, error)
    .transform((value) => Math.round(value * 1000));
};

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

/** A Stripe key or secret of the given prefixes, e.g. sk_test_… or sk_live_…. */
const stripeKey = (prefixes: string[], example: string) =>
  z.string().refine((value) => new RegExp(`^(${prefixes.join('|')})_\\S+$`).test(value), {
    error: `must be a Stripe ${example} from the Stripe dashboard`,
  });

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: port.default(3000),
  PUBLIC_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true'),
  CLINIC_NAME: z.string().min(1).default('Doctors Portal'),
  CLINIC_PHONE: z.string().min(1).default('+1 (555) 010-2030'),
  CLINIC_ADDRESS: z.string().min(1).default('120 Harbor Street, Springfield'),
  CLINIC_EMAIL: z.email({ error: 'must be an email address' }).default('hello@doctors-portal.test'),
  CLINIC_TIMEZONE: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA time zone such as America/New_York' })
    .default('America/New_York'),
  BOOKING_HORIZON_DAYS: wholeNumber(1, 36_500, 'days').default(180),
  MAX_UNPAID_BOOKINGS: wholeNumber(1, 10_000, 'bookings').default(5),
  MIN_BOOKING_NOTICE_MINUTES: wholeNumber(0, 43_200, 'minutes').default(0),
  CANCELLATION_NOTICE_HOURS: wholeNumber(0, 720, 'hours').default(24),
  REMINDER_LEAD_HOURS: wholeNumber(1, 720, 'hours').default(24),
  SMTP_URL: smtpUrl.optional(),
  MAIL_FROM: mailbox.optional(),
  MAIL_RATE: mailRate.default(10),
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
  BENCH_BARE_ROUTE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  // Defaults are the parsed value, in milliseconds.
  HEADERS_TIMEOUT: seconds(1, 60).default(TIMEOUTS.headers),
  KEEP_ALIVE_TIMEOUT: seconds(1, 900).default(TIMEOUTS.keepAlive),
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
  STRIPE_SECRET_KEY: stripeKey(
    ['sk_test', 'sk_live', 'rk_test', 'rk_live'],
    'secret key (sk_…)',
  ).optional(),
  STRIPE_PUBLISHABLE_KEY: stripeKey(['pk_test', 'pk_live'], 'publishable key (pk_…)').optional(),
  STRIPE_WEBHOOK_SECRET: stripeKey(['whsec'], 'webhook signing secret (whsec_…)').optional(),
  STRIPE_API_BASE: httpUrl
    .refine((value) => new URL(value).pathname === '/' && !new URL(value).search, {
      error: 'must be an http(s):// origin without a path, such as http://127.0.0.1:12111',
    })
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
      error: 'must be an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
    })
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, { error: 'must be a region name such as us-east-1' })
    .optional(),
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_URL: httpUrl.optional(),
});

/** Variables whose values a message must not repeat. */
const SECRET_VARIABLES = new Set([
  'AUTH_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'S3_SECRET_ACCESS_KEY',
]);

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  dataDir: string;
  database:
    | { engine: 'sqlite'; file: string }
    | {
        engine: 'postgres';
        url: string;
        /**
         * Statements compiled once go as named, prepared statements (decision 029); false for a
         * pooler that cannot keep them (PgBouncer before 1.21 in transaction mode). Default true.
         */
        preparedStatements?: boolean;
      };
  clinic: { name: string; phone: string; address: string; email: string; timeZone: string };
  bookingRules: BookingRules;
  /** SMTP when SMTP_URL is set; otherwise every message is written to an outbox folder. */
  mail: ({ transport: 'smtp'; url: string } | { transport: 'outbox'; dir: string }) & {
    from: string;
    /** At most this many queued messages a second go to the relay (see mail/queue.ts). */
    ratePerSecond: number;
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
  /** Stripe when its three STRIPE_* secrets are set; otherwise the offline demo gateway. */
  payments: PaymentsConfig;
  /** Where uploaded images are kept: DATA_DIR/uploads, or an S3 bucket when S3_* are set. */
  images: ImagesConfig;
  /** Serve GET /api/bench/bare, on which `npm run bench` measures the portal's per-request floor. */
  benchBareRoute: boolean;
  /** How long the server waits for clients (see http/timeouts.ts). */
  timeouts: Timeouts;
}

/**
 * What a patient may book and cancel: how far ahead, how long before the start at the latest, how
 * many upcoming visits left unpaid, until when a cancellation is free, and when the reminder goes
 * out. These are the defaults; the clinic's own, stored in the database, replace them
 * (clinic/calendar.ts).
 */
export interface BookingRules {
  horizonDays: number;
  minNoticeMinutes: number;
  maxUnpaidBookings: number;
  cancellationNoticeHours: number;
  reminderLeadHours: number;
}

export type PaymentsConfig =
  | { provider: 'demo' }
  | {
      provider: 'stripe';
      secretKey: string;
      publishableKey: string;
      webhookSecret: string;
      /** Where stripe-node sends its requests instead of api.stripe.com (a local stand-in). */
      apiBase?: { host: string; port: number; protocol: 'http' | 'https' };
    };

export type ImagesConfig =
  | { storage: 'disk'; dir: string }
  | {
      storage: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible service (path-style addressing); unset: AWS S3 itself. */
      endpoint?: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** Where browsers fetch the bucket's objects; unset: the portal serves them at /uploads/. */
      publicUrl?: string;
    };

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
    // A secret is never repeated in the message, nor a URL's password.
    const value = SECRET_VARIABLES.has(name) ? undefined : cleaned[name];
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
  const payments = paymentsConfig(env);
  const dataDir = path.resolve(ROOT_DIR, env.DATA_DIR);
  const images = imagesConfig(env, dataDir);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    logLevel: env.LOG_LEVEL,
    dataDir,
    database: env.DATABASE_URL
      ? {
          engine: 'postgres',
          url: env.DATABASE_URL,
          preparedStatements: env.DATABASE_PREPARED_STATEMENTS === 'true',
        }
      : { engine: 'sqlite', file: path.join(dataDir, 'portal.db') },
    clinic: {
      name: env.CLINIC_NAME,
      phone: env.CLINIC_PHONE,
      address: env.CLINIC_ADDRESS,
      email: env.CLINIC_EMAIL,
      timeZone: env.CLINIC_TIMEZONE,
    },
    bookingRules: {
      horizonDays: env.BOOKING_HORIZON_DAYS,
      maxUnpaidBookings: env.MAX_UNPAID_BOOKINGS,
      minNoticeMinutes: env.MIN_BOOKING_NOTICE_MINUTES,
      cancellationNoticeHours: env.CANCELLATION_NOTICE_HOURS,
      reminderLeadHours: env.REMINDER_LEAD_HOURS,
    },
    mail: {
      ...(env.SMTP_URL
        ? { transport: 'smtp' as const, url: env.SMTP_URL }
        : { transport: 'outbox' as const, dir: path.join(dataDir, 'outbox') }),
      from: env.MAIL_FROM?.trim() ?? defaultSender(env.CLINIC_NAME, env.CLINIC_EMAIL),
      ratePerSecond: env.MAIL_RATE,
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
    payments,
    images,
    benchBareRoute: env.BENCH_BARE_ROUTE === 'true',
    timeouts: {
      ...TIMEOUTS,
      headers: env.HEADERS_TIMEOUT,
      keepAlive: env.KEEP_ALIVE_TIMEOUT,
    },
  };
}

const S3_REQUIRED = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
const S3_OPTIONAL = ['S3_ENDPOINT', 'S3_PUBLIC_URL'] as const;

/** S3 needs its bucket, region and key pair together; none of S3_* keeps images on disk. */
function imagesConfig(env: z.output<typeof envSchema>, dataDir: string): ImagesConfig {
  const missing = S3_REQUIRED.filter((name) => !env[name]);
  if (missing.length === S3_REQUIRED.length) {
    const stray = S3_OPTIONAL.find((name) => env[name]);
    if (stray) {
      throw new ConfigError(
        `${stray} is set but S3 storage is not: set S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY too, or unset it`,
      );
    }
    return { storage: 'disk', dir: path.join(dataDir, 'uploads') };
  }
  const { S3_BUCKET: bucket, S3_REGION: region } = env;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  if (missing.length > 0 || !bucket || !region || !accessKeyId || !secretAccessKey) {
    throw new ConfigError(
      `${missing.join(' and ')} must be set too: S3 image storage needs the bucket, region, access key id and secret access key (leave every S3_* unset to keep images in DATA_DIR/uploads)`,
    );
  }
  return {
    storage: 's3',
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    ...(env.S3_PUBLIC_URL ? { publicUrl: env.S3_PUBLIC_URL } : {}),
  };
}

const STRIPE_SECRETS = [
  'STRIPE_SECRET_KEY',
  'STRIPE_PUBLISHABLE_KEY',
  'STRIPE_WEBHOOK_SECRET',
] as const;

/** Stripe needs all three of its secrets, from one mode (test or live); none means the demo. */
function paymentsConfig(env: z.output<typeof envSchema>): PaymentsConfig {
  const missing = STRIPE_SECRETS.filter((name) => !env[name]);
  if (missing.length === STRIPE_SECRETS.length) {
    if (env.STRIPE_API_BASE) {
      throw new ConfigError(
        'STRIPE_API_BASE is set but Stripe is not: set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET too, or unset it',
      );
    }
    return { provider: 'demo' };
  }
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_PUBLISHABLE_KEY: publishableKey } = env;
  const { STRIPE_WEBHOOK_SECRET: webhookSecret } = env;
  if (missing.length > 0 || !secretKey || !publishableKey || !webhookSecret) {
    throw new ConfigError(
      `${missing.join(' and ')} must be set too: Stripe payments need the secret key, the publishable key and the webhook signing secret (leave all three unset for the offline demo gateway)`,
    );
  }
  const secretMode = secretKey.includes('_live_') ? 'live' : 'test';
  const publishableMode = publishableKey.startsWith('pk_live_') ? 'live' : 'test';
  if (secretMode !== publishableMode) {
    throw new ConfigError(
      `STRIPE_PUBLISHABLE_KEY is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key: use the two keys of one mode`,
    );
  }
  if (!env.STRIPE_API_BASE) return { provider: 'stripe', secretKey, publishableKey, webhookSecret };
  const url = new URL(env.STRIPE_API_BASE);
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return {
    provider: 'stripe',
    secretKey,
    publishableKey,
    webhookSecret,
    apiBase: {
      host: url.hostname,
      port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80,
      protocol,
    },
  };
}

/** '"Doctors Portal" <no-reply@doctors-portal.test>': the clinic's name at its own mail domain. */
function defaultSender(clinicName: string, clinicEmail: string): string {
  const domain = clinicEmail.slice(clinicEmail.lastIndexOf('@') + 1);
  return `"${clinicName.replace(/["\\\r\n]/g, '')}" <no-reply@${domain}>`;
}
