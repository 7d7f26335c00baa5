import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTimeZone } from '@doctors-portal/contract';
import { z } from 'zod';

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
}

/** Thrown when the environment cannot start the portal; its message is one line. */
export class ConfigError extends Error {
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
    const got = value === undefined ? '' : ` (got ${JSON.stringify(value)})`;
    throw new ConfigError(`${name} ${issue?.message ?? 'is invalid'}${got}`);
  }
  const env = parsed.data;
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
  };
}
