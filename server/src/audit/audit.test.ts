import type { AuditPage } from '@doctors-portal/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type AuditEntry, adminActor, patientActor, recordAudit, systemActor } from './log.js';
import { startOfClinicDay } from './repository.js';

/**
 * `GET /api/audit`: the clinic's administrators read the log newest first, a page at a time,
 * filtered by the clinic's days, by who acted and by what they did. Nobody can change it.
 */
describe(`the audit log's API (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let patient: Person;

  const read = async (query = '', token = admin.token) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/audit${query}`,
      headers: bearer(token),
    });
    return response;
  };
  const page = async (query = '') => {
    const response = await read(query);
    expect(response.statusCode).toBe(200);
    return response.json() as AuditPage;
  };
  const subjects = (answer: AuditPage) => answer.entries.map((entry) => entry.subject.id);

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app, 'Audrey Admin');
    patient = await signedUp(t.app, 'Percy Patient');
    // Entries at known moments, around the clinic's midnights (America/New_York: UTC-5 in
    // January). Written as the changes would write them, one transaction each.
    const at = (iso: string) => new Date(iso);
    const known: AuditEntry[] = [
      {
        actor: patientActor(patient),
        action: 'booking.created',
        subject: { type: 'booking', id: 's1' },
        after: { status: 'booked' },
        at: at('2030-01-05T04:59:59.000Z'), // Jan 4, 11:59 PM at the clinic
      },
      {
        actor: patientActor(patient),
        action: 'booking.cancelled',
        subject: { type: 'booking', id: 's2' },
        at: at('2030-01-05T05:00:00.000Z'), // Jan 5, midnight at the clinic
      },
      {
        actor: adminActor(admin),
        action: 'role.granted',
        subject: { type: 'user', id: 's3', label: 'promoted@mail.com' },
        before: { role: null },
        after: { role: 'admin' },
        at: at('2030-01-06T04:59:59.000Z'), // Jan 5, 11:59 PM
      },
      {
        actor: systemActor('stripe-webhook'),
        action: 'booking.paid',
        subject: { type: 'booking', id: 's4' },
        at: at('2030-01-06T05:00:00.000Z'), // Jan 6, midnight
      },
      {
        actor: adminActor(admin),
        action: 'doctor.added',
        subject: { type: 'doctor', id: 's5' },
        at: at('2030-01-07T12:00:00.000Z'),
      },
    ];
    for (const entry of known) {
      await t.db.transaction().execute((tx) => recordAudit(tx, entry));
    }
  });
  afterAll(() => t.close());

  it('answers entries newest first, with who, when, what, the subject and the changes', async () => {
    const answer = await page('?from=2030-01-01&to=2030-01-31');

    expect(subjects(answer)).toEqual(['s5', 's4', 's3', 's2', 's1']);
    expect(answer.nextCursor).toBeNull();
    expect(answer.entries[2]).toEqual({
      _id: expect.any(String),
      at: '2030-01-06T04:59:59.000Z',
      actor: { kind: 'admin', id: admin.id, name: 'Audrey Admin', email: admin.email },
      action: 'role.granted',
      subject: { type: 'user', id: 's3', label: 'promoted@mail.com' },
      before: { role: null },
      after: { role: 'admin' },
    });
    expect(answer.entries[1]?.actor).toEqual({
      kind: 'system',
      id: null,
      name: 'stripe-webhook',
      email: null,
    });
  });

  it("filters by the clinic's days, both ends included", async () => {
    expect(subjects(await page('?from=2030-01-05&to=2030-01-05'))).toEqual(['s3', 's2']);
    expect(subjects(await page('?from=2030-01-06&to=2030-01-31'))).toEqual(['s5', 's4']);
    expect(subjects(await page('?from=2030-01-01&to=2030-01-04'))).toEqual(['s1']);
  });

  it("works out the clinic's midnight across daylight saving time", () => {
    expect(startOfClinicDay('2030-01-05' as never, 'America/New_York')).toBe(
      '2030-01-05T05:00:00.000Z',
    );
    expect(startOfClinicDay('2030-07-05' as never, 'America/New_York')).toBe(
      '2030-07-05T04:00:00.000Z',
    );
    // The day clocks go forward (Mar 10, 2030) still begins at its midnight, before the change.
    expect(startOfClinicDay('2030-03-10' as never, 'America/New_York')).toBe(
      '2030-03-10T05:00:00.000Z',
    );
    expect(startOfClinicDay('2030-01-05' as never, 'Asia/Kolkata')).toBe(
      '2030-01-04T18:30:00.000Z',
    );
  });

  it("filters by who acted: an account's id, part of a name or email, or 'system'", async () => {
    const range = 'from=2030-01-01&to=2030-01-31';
    expect(subjects(await page(`?${range}&actor=${patient.id}`))).toEqual(['s2', 's1']);
    expect(subjects(await page(`?${range}&actor=audrey`))).toEqual(['s5', 's3']);
    expect(subjects(await page(`?${range}&actor=${encodeURIComponent(admin.email)}`))).toEqual([
      's5',
      's3',
    ]);
    expect(subjects(await page(`?${range}&actor=system`))).toEqual(['s4']);
    // A wildcard matches itself only.
    expect(subjects(await page(`?${range}&actor=%25`))).toEqual([]);
  });

  it('finds who acted by a part of their name in any case, letters beyond ASCII too', async () => {
    const at = new Date('2029-04-01T15:00:00.000Z');
    for (const [id, name] of [
      ['u1', 'Élodie Durand'],
      ['u2', 'Иван Петров'],
    ] as const) {
      await t.db.transaction().execute((tx) =>
        recordAudit(tx, {
          actor: { kind: 'admin', id: `a-${id}`, name, email: `${id}@clinic.com` },
          action: 'doctor.added',
          subject: { type: 'doctor', id },
          at,
        }),
      );
    }
    const range = 'from=2029-04-01&to=2029-04-01';
    for (const [actor, found] of [
      ['Élodie', 'u1'],
      ['élodie', 'u1'],
      ['ÉLODIE DURAND', 'u1'],
      ['иван', 'u2'],
      ['ПЕТРОВ', 'u2'],
    ] as const) {
      expect(subjects(await page(`?${range}&actor=${encodeURIComponent(actor)}`)), actor).toEqual([
        found,
      ]);
    }
  });

  it("filters by the kind of who acted: 'patient', 'admin' or 'system'", async () => {
    // Names that do not say what their owners are: the kind decides, not the text.
    const at = new Date('2029-03-01T15:00:00.000Z');
    const entries: AuditEntry[] = [
      {
        actor: { kind: 'patient', id: 'p-9', name: 'Nadia Noor', email: 'nadia@mail.com' },
        action: 'booking.created',
        subject: { type: 'booking', id: 'k1' },
        at,
      },
      {
        actor: { kind: 'admin', id: 'a-9', name: 'Omar Ode', email: 'omar@clinic.com' },
        action: 'doctor.added',
        subject: { type: 'doctor', id: 'k2' },
        at,
      },
      {
        actor: systemActor('reminders'),
        action: 'booking.paid',
        subject: { type: 'booking', id: 'k3' },
        at,
      },
    ];
    for (const entry of entries) {
      await t.db.transaction().execute((tx) => recordAudit(tx, entry));
    }
    const range = 'from=2029-03-01&to=2029-03-01';
    expect(subjects(await page(`?${range}&actor=patient`))).toEqual(['k1']);
    expect(subjects(await page(`?${range}&actor=Admin`))).toEqual(['k2']);
    expect(subjects(await page(`?${range}&actor=system`))).toEqual(['k3']);
    expect(subjects(await page(`?${range}&actor=nadia`))).toEqual(['k1']);
  });

  it('filters by action, by name or by family', async () => {
    const range = 'from=2030-01-01&to=2030-01-31';
    expect(subjects(await page(`?${range}&action=booking.cancelled`))).toEqual(['s2']);
    expect(subjects(await page(`?${range}&action=booking.*`))).toEqual(['s4', 's2', 's1']);
    expect(subjects(await page(`?${range}&action=doctor.*&actor=audrey`))).toEqual(['s5']);
  });

  it('pages with the cursor it gives, without repeating or skipping an entry', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const answer: AuditPage = await page(
        `?from=2030-01-01&to=2030-01-31&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...subjects(answer));
      cursor = answer.nextCursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['s5', 's4', 's3', 's2', 's1']);
  });

  it('takes any date to the last an ISO date names', async () => {
    expect(subjects(await page('?from=2030-01-06&to=9999-12-31'))).toEqual(['s5', 's4']);
  });

  it('reads the last days an ISO date names without failing, west of Greenwich too', async () => {
    // The last date's midnight at the clinic (New York) is in the year 10000, past every entry;
    // the day before it ends there.
    expect(subjects(await page('?from=9999-12-31'))).toEqual([]);
    expect(subjects(await page('?from=9999-12-31&to=9999-12-31'))).toEqual([]);
    expect(subjects(await page('?from=9999-12-30'))).toEqual([]);
    expect(subjects(await page('?from=2030-01-06&to=9999-12-30'))).toEqual(['s5', 's4']);
  });

  it('answers 400 with reasons for a bad date, range, action, limit or cursor', async () => {
    for (const query of [
      '?from=2030-02-30',
      '?from=Jan%205%2C%202030',
      '?from=2030-01-06&to=2030-01-05',
      '?action=DROP%20TABLE',
      '?limit=0',
      '?limit=201',
      '?cursor=bm90LWEtY3Vyc29y',
    ]) {
      const response = await read(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toEqual(expect.any(String));
    }
  });

  it('is for administrators only: 401 without a session, 403 for a patient', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/audit' });
    expect(anonymous.statusCode).toBe(401);
    expect((await read('', patient.token)).statusCode).toBe(403);
  });

  it('cannot be changed or deleted through the API: no route does it', async () => {
    const [entry] = (await page('?from=2030-01-01&to=2030-01-31')).entries;
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      for (const url of ['/api/audit', `/api/audit/${entry?._id}`]) {
        const response = await t.app.inject({
          method,
          url,
          headers: bearer(admin.token),
          payload: { action: 'nothing.happened' },
        });
        expect([404, 405], `${method} ${url}`).toContain(response.statusCode);
      }
    }
    expect((await page('?from=2030-01-01&to=2030-01-31')).entries[0]).toEqual(entry);
  });
});
