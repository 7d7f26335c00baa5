import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, ROOT_DIR } from './env.js';

describe('loadConfig', () => {
  it('starts with embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.env).toBe('development');
    expect(config.dataDir).toBe(path.join(ROOT_DIR, 'data'));
    expect(config.database).toEqual({
      engine: 'sqlite',
      file: path.join(ROOT_DIR, 'data', 'portal.db'),
    });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.clinic.timeZone).toBe('America/New_York');
  });

  it('uses PostgreSQL when DATABASE_URL is a postgres:// URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://clinic@db.internal:5432/portal' });
    expect(config.database).toEqual({
      engine: 'postgres',
      url: 'postgres://clinic@db.internal:5432/portal',
      preparedStatements: true,
    });
  });

  it('sends PostgreSQL plain statements with DATABASE_PREPARED_STATEMENTS=false (an old pooler)', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://clinic@db.internal:5432/portal',
      DATABASE_PREPARED_STATEMENTS: 'false',
    });
    expect(config.database).toMatchObject({ engine: 'postgres', preparedStatements: false });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 1 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 1 to 65535 (got "70000")'],
    [{ PORT: '30.5' }, 'PORT must be a whole number from 1 to 65535 (got "30.5")'],
    [
      { DATABASE_URL: 'mysql://localhost/portal' },
      'DATABASE_URL must be a postgres:// URL (leave it unset to use SQLite in DATA_DIR) (got "mysql://localhost/portal")',
    ],
    [
      { DATABASE_PREPARED_STATEMENTS: 'no' },
      'DATABASE_PREPARED_STATEMENTS must be true or false (got "no")',
    ],
    [
      { PUBLIC_URL: 'portal.example' },
      'PUBLIC_URL must be an http:// or https:// URL (got "portal.example")',
    ],
    [
      { CLINIC_TIMEZONE: 'Mars/Olympus' },
      'CLINIC_TIMEZONE must be an IANA time zone such as America/New_York (got "Mars/Olympus")',
    ],
    [
      { BOOKING_HORIZON_DAYS: '0' },
      'BOOKING_HORIZON_DAYS must be a whole number of days from 1 to 36500 (got "0")',
    ],
    [
      { MAX_UNPAID_BOOKINGS: 'many' },
      'MAX_UNPAID_BOOKINGS must be a whole number of bookings from 1 to 10000 (got "many")',
    ],
    [
      { MIN_BOOKING_NOTICE_MINUTES: '-5' },
      'MIN_BOOKING_NOTICE_MINUTES must be a whole number of minutes from 0 to 43200 (got "-5")',
    ],
    [
      { CANCELLATION_NOTICE_HOURS: '1.5' },
      'CANCELLATION_NOTICE_HOURS must be a whole number of hours from 0 to 720 (got "1.5")',
    ],
    [
      { REMINDER_LEAD_HOURS: '0' },
      'REMINDER_LEAD_HOURS must be a whole number of hours from 1 to 720 (got "0")',
    ],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('refuses %o with a one-line message naming the variable', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('HEADERS_TIMEOUT and KEEP_ALIVE_TIMEOUT', () => {
  it('default to 15 s and 10 s, with the request and idle timeouts of http/timeouts.ts', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headers: 15_000,
      request: 120_000,
      keepAlive: 10_000,
      idle: 120_000,
    });
  });

  it('are read in seconds, fractions allowed', () => {
    const { timeouts } = loadConfig({ HEADERS_TIMEOUT: '2.5', KEEP_ALIVE_TIMEOUT: '65' });
    expect(timeouts.headers).toBe(2500);
    expect(timeouts.keepAlive).toBe(65_000);
  });

  it.each([
    [
      { HEADERS_TIMEOUT: '0' },
      'HEADERS_TIMEOUT must be a number of seconds from 1 to 60 (got "0")',
    ],
    [
      { HEADERS_TIMEOUT: '120' },
      'HEADERS_TIMEOUT must be a number of seconds from 1 to 60 (got "120")',
    ],
    [
      { KEEP_ALIVE_TIMEOUT: 'long' },
      'KEEP_ALIVE_TIMEOUT must be a number of seconds from 1 to 900 (got "long")',
    ],
  ])('refuse %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
