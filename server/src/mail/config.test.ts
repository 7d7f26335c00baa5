import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, ROOT_DIR } from '../config/env.js';

/** SMTP_URL and MAIL_FROM as loadConfig reads them into `config.mail`. */
describe('mail configuration', () => {
  it('defaults to the outbox under DATA_DIR, from the clinic name at the clinic mail domain', () => {
    expect(loadConfig({}).mail).toEqual({
      transport: 'outbox',
      dir: path.join(ROOT_DIR, 'data', 'outbox'),
      from: '"Doctors Portal" <no-reply@doctors-portal.test>',
      ratePerSecond: 10,
    });
    expect(
      loadConfig({ CLINIC_NAME: 'Dr. "Smile", Family Dental', CLINIC_EMAIL: 'front@smile.example' })
        .mail.from,
    ).toBe('"Dr. Smile, Family Dental" <no-reply@smile.example>');
  });

  it.each([
    'smtp://mail.example.com',
    'smtp://user:pass@mail.example.com:587',
    'smtps://user%40example.com:p%40ss@smtp.example.com:465',
    'smtp://127.0.0.1:2525',
  ])('uses SMTP for %s', (url) => {
    expect(loadConfig({ SMTP_URL: url }).mail).toMatchObject({ transport: 'smtp', url });
  });

  it('takes MAIL_FROM as given', () => {
    expect(loadConfig({ MAIL_FROM: 'Smile Clinic <no-reply@smile.example>' }).mail.from).toBe(
      'Smile Clinic <no-reply@smile.example>',
    );
    expect(loadConfig({ MAIL_FROM: 'no-reply@smile.example' }).mail.from).toBe(
      'no-reply@smile.example',
    );
  });

  it('takes MAIL_RATE, the messages a second the queue hands to the relay', () => {
    expect(loadConfig({ MAIL_RATE: '14' }).mail.ratePerSecond).toBe(14);
    expect(loadConfig({ MAIL_RATE: '0.5' }).mail.ratePerSecond).toBe(0.5);
  });

  it.each([
    [
      { SMTP_URL: 'mail.example.com:587' },
      'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587 (got "mail.example.com:587")',
    ],
    [
      { SMTP_URL: 'http://user:hunter2@mail.example.com' },
      'SMTP_URL must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example.com:587 (got "http://user:***@mail.example.com")',
    ],
    [{ SMTP_URL: 'smtp://user:hunter2@' }, '(got "smtp://user:***@")'],
    [
      { MAIL_FROM: 'the clinic' },
      'MAIL_FROM must be an email address, optionally with a name: Clinic <no-reply@clinic.example> (got "the clinic")',
    ],
    [{ MAIL_RATE: '0' }, 'MAIL_RATE must be a number of messages a second, from 0.1 to 1000'],
    [{ MAIL_RATE: 'fast' }, 'MAIL_RATE must be a number of messages a second, from 0.1 to 1000'],
  ])('refuses %o with a one-line message and no password', (env, message) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('hunter2');
    expect((error as Error).message).not.toContain('\n');
  });
});
