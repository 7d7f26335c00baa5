import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type Patient, signedUpAdmin } from '../../test/payment-fixtures.js';
import { findUnstorableText } from './text-input.js';

describe('findUnstorableText', () => {
  it('names where a NUL character or half a surrogate pair is, in values and in keys', () => {
    expect(findUnstorableText({ name: 'Ana\u0000Lee' }, 'body')).toEqual({
      where: 'body.name',
      what: 'NUL characters (\\u0000)',
    });
    expect(findUnstorableText({ list: ['ok', 'x\uDC00'] }, 'body')).toEqual({
      where: 'body.list.1',
      what: 'unpaired surrogates (\\uD800 to \\uDFFF)',
    });
    expect(findUnstorableText({ nested: { '\uD800': 1 } }, 'query')?.where).toBe('query.nested');
  });

  it('lets through whole pairs (emoji), other scripts and text-direction marks', () => {
    expect(findUnstorableText({ label: '🦷 Zahnreinigung — تنظيف ‎' }, 'body')).toBeNull();
    expect(findUnstorableText(['😀', { a: 'é' }, 3, null], 'body')).toBeNull();
  });
});

describe(`text the databases would not store as sent is refused (${engine})`, () => {
  let t: TestApp;
  let admin: Patient;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t);
  });
  afterAll(() => t.close());

  const addClosure = (label: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/closures',
      headers: bearer(admin.token),
      payload: { from: clinicDay(300), to: clinicDay(301), label },
    });

  it('refuses a closure labelled with half a surrogate pair (400), and stores nothing', async () => {
    // JSON's escape spells the lone half; the payload stays ASCII on the wire.
    const response = await addClosure('\uD800');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'Text may not contain unpaired surrogates (\\uD800 to \\uDFFF); found one in body.label.',
    );
    expect(await t.db.selectFrom('closure').selectAll().execute()).toEqual([]);
  });

  it('stores a label with an emoji as sent, and reads it back the same', async () => {
    const response = await addClosure('Closed 🦷');
    expect(response.statusCode, response.body).toBe(201);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/closures',
      headers: bearer(admin.token),
    });
    expect(listed.json().map((closure: { label: string }) => closure.label)).toEqual(['Closed 🦷']);
  });
});
