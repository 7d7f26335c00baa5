import { messages, NAME_FORBIDDEN_MESSAGE } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, authRequest, signUp } from '../../test/accounts.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { loadConfig } from '../config/env.js';
import { PROFILE_IMAGE_MESSAGE, profileImageRule } from './profile-rules.js';

const PHOTO = '0f8fad5b-d9cb-469f-a165-70867728950e.webp';

describe(`profile updates obey the sign-up rules (${engine})`, () => {
  let t: TestApp;
  let account: Account;

  beforeAll(async () => {
    t = await buildTestApp();
    account = await signUp(t.app, { name: 'Ana Lee' });
  });
  afterAll(() => t.close());

  const update = (body: Record<string, unknown>) =>
    authRequest(t.app, '/update-user', body, { cookie: account.cookie });
  const stored = () =>
    t.db
      .selectFrom('user')
      .select(['name', 'image'])
      .where('email', '=', account.email)
      .executeTakeFirstOrThrow();

  it.each([
    ['an empty name', '', messages.nameRequired],
    ['a name of spaces', '   ', messages.nameRequired],
    ['a name of 101 characters', 'a'.repeat(101), 'Name must be 100 characters or shorter'],
    ['a name of 200,000 characters', 'x'.repeat(200_000), 'Name must be 100 characters or shorter'],
    ['a right-to-left override', 'Ana\u202Egnp.exe', NAME_FORBIDDEN_MESSAGE],
    ['a left-to-right isolate', 'Ana\u2066Lee', NAME_FORBIDDEN_MESSAGE],
    // The portal refuses NUL and half surrogate pairs in any text before the auth library sees
    // them (http/text-input.ts).
    ['a NUL character', 'Ana\u0000Lee', /NUL/],
    ['half a surrogate pair', 'Ana\uD800Lee', /unpaired surrogates/],
    ['an escape sequence', 'Ana\u001b[31mLee', NAME_FORBIDDEN_MESSAGE],
    ['a C1 control', 'Ana\u0085Lee', NAME_FORBIDDEN_MESSAGE],
  ])('update-user refuses %s (400) and keeps the name', async (_kind, name, message) => {
    const response = await update({ name });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect((await stored()).name).toBe('Ana Lee');
  });

  it('update-user stores an acceptable name, trimmed', async () => {
    const response = await update({ name: '  Ana Maria Lee ' });
    expect(response.statusCode).toBe(200);
    expect((await stored()).name).toBe('Ana Maria Lee');
    await update({ name: 'Ana Lee' });
  });

  it('sign-up refuses a name with control or text-direction characters', async () => {
    for (const name of ['Eve\u202Enil', 'Eve\u0007', 'Eve\u2069']) {
      const response = await authRequest(t.app, '/sign-up/email', {
        name,
        email: `eve-${Date.now()}@mail.com`,
        password: 'brush-twice-daily',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(NAME_FORBIDDEN_MESSAGE);
    }
  });

  it.each([
    ['another site', 'https://tracker.example/pixel.png'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:image/svg+xml,<svg onload=alert(1)>'],
    ['a path outside the uploads', '/api/users'],
    ['an upload path that climbs out', '/uploads/../api/users'],
    ['an upload that is not an image name', '/uploads/notes.txt'],
    ['a look-alike host', `http://localhost:3000.evil.example/uploads/${PHOTO}`],
    ['a Google picture while Google sign-in is off', 'https://lh3.googleusercontent.com/a/x'],
    ['a non-string', 42],
  ])('update-user refuses a picture from %s (400) and keeps the old one', async (_kind, image) => {
    const response = await update({ image });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(PROFILE_IMAGE_MESSAGE);
    expect((await stored()).image).toBeNull();
  });

  it('sign-up refuses a picture from another site', async () => {
    const response = await authRequest(t.app, '/sign-up/email', {
      name: 'Eve',
      email: `eve-image-${Date.now()}@mail.com`,
      password: 'brush-twice-daily',
      image: 'https://tracker.example/pixel.png',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(PROFILE_IMAGE_MESSAGE);
  });

  it('update-user accepts the portal’s own uploads, and null or empty to clear', async () => {
    for (const image of [`/uploads/${PHOTO}`, `${t.config.publicUrl}/uploads/${PHOTO}`]) {
      const response = await update({ image });
      expect(response.statusCode).toBe(200);
      expect((await stored()).image).toBe(image);
    }
    expect((await update({ image: null })).statusCode).toBe(200);
    expect((await stored()).image).toBeNull();
    expect((await update({ image: '' })).statusCode).toBe(200);
    expect((await stored()).image ?? '').toBe('');
    await t.db
      .updateTable('user')
      .set({ image: null })
      .where('email', '=', account.email)
      .execute();
  });
});

describe('the profile picture rule', () => {
  const photo = `/uploads/${PHOTO}`;

  it('accepts the configured image storage’s public base (S3_PUBLIC_URL)', () => {
    const allowed = profileImageRule(
      loadConfig({
        S3_BUCKET: 'clinic-photos',
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PUBLIC_URL: 'https://cdn.clinic.example/photos',
      }),
    );
    expect(allowed(`https://cdn.clinic.example/photos/${PHOTO}`)).toBe(true);
    expect(allowed(photo)).toBe(true);
    expect(allowed(`https://cdn.clinic.example/other/${PHOTO}`)).toBe(false);
    expect(allowed(`https://cdn.clinic.example.evil/photos/${PHOTO}`)).toBe(false);
  });

  it('accepts Google’s picture host only when Google sign-in is configured', () => {
    const google = profileImageRule(
      loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }),
    );
    const picture = 'https://lh3.googleusercontent.com/a/ACg8ocK2abc=s96-c';
    expect(google(picture)).toBe(true);
    expect(google('http://lh3.googleusercontent.com/a/ACg8ocK2abc=s96-c')).toBe(false);
    expect(google('https://lh3.googleusercontent.com.evil.example/a.png')).toBe(false);
    expect(google('https://user:pass@lh3.googleusercontent.com/a.png')).toBe(false);
    expect(profileImageRule(loadConfig({}))(picture)).toBe(false);
  });

  it('accepts the host of GOOGLE_ISSUER for another OpenID provider', () => {
    const local = profileImageRule(
      loadConfig({
        GOOGLE_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 'secret',
        GOOGLE_ISSUER: 'http://127.0.0.1:4455',
      }),
    );
    expect(local('http://127.0.0.1:4455/pictures/gina.png')).toBe(true);
    expect(local('http://127.0.0.1:4456/pictures/gina.png')).toBe(false);
    expect(local('https://lh3.googleusercontent.com/a/x')).toBe(false);
  });

  it('accepts uploads under PUBLIC_URL', () => {
    const allowed = profileImageRule(loadConfig({ PUBLIC_URL: 'https://clinic.example' }));
    expect(allowed(`https://clinic.example/uploads/${PHOTO}`)).toBe(true);
    expect(allowed(`http://clinic.example/uploads/${PHOTO}`)).toBe(false);
    expect(allowed(`https://clinic.example/uploads/${PHOTO}?x=1`)).toBe(false);
  });
});
