import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { adminActor } from '../audit/log.js';
import { revokeAdmin } from './admin-revocation.js';
import { countAdmins, setAdmin } from './repository.js';
import { userErrors } from './routes.js';

const OWNER = 'owner@clinic.com';

const revoke = (app: FastifyInstance, token: string, email: string) =>
  app.inject({ method: 'DELETE', url: `/api/user/admin/${email}`, headers: bearer(token) });

/** Whether the person's token opens an admin-only route. */
async function actsAsAdmin(app: FastifyInstance, person: Person) {
  const response = await app.inject({
    method: 'GET',
    url: '/api/users',
    headers: bearer(person.token),
  });
  return response.statusCode === 200;
}

describe(`taking the admin role back (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  const adminEmails = new Set([OWNER]);

  beforeAll(async () => {
    t = await buildTestApp({ env: { ADMIN_EMAILS: OWNER } });
    admin = await signedUpAdmin(t.app, 'Clinic Admin');
  });
  afterAll(() => t.close());

  /** Makes exactly these people the clinic's admins by role. */
  async function onlyAdmins(...people: Person[]) {
    await t.db.updateTable('user').set({ role: null }).execute();
    for (const person of people) await setAdmin(t.db, person.email, true);
  }

  it('takes the role from another admin, whose next call is a patient’s, and logs it as a grant is', async () => {
    const other = await signedUpAdmin(t.app, 'Former Admin');
    expect(await actsAsAdmin(t.app, other)).toBe(true);

    const response = await revoke(t.app, admin.token, other.email.toUpperCase());

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ modifiedCount: 1 });
    expect(await actsAsAdmin(t.app, other)).toBe(false);
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'role.revoked')
      .where('subject_id', '=', other.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      actor_kind: 'admin',
      actor_id: admin.id,
      actor_email: admin.email,
      subject_type: 'user',
      subject_label: other.email,
    });
    expect(JSON.parse(entry.before ?? 'null')).toEqual({ role: 'admin' });
    expect(JSON.parse(entry.after ?? 'null')).toEqual({ role: null });
  });

  it('answers modifiedCount 0 for a patient, recording nothing', async () => {
    const patient = await signedUp(t.app, 'Plain Patient');
    const response = await revoke(t.app, admin.token, patient.email);
    expect(response.json()).toEqual({ modifiedCount: 0 });
    const entries = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('subject_id', '=', patient.id)
      .where('action', '=', 'role.revoked')
      .execute();
    expect(entries).toHaveLength(0);
  });

  it('refuses an admin their own role (409), saying why, and they stay admin', async () => {
    const other = await signedUpAdmin(t.app, 'Second Admin');
    const response = await revoke(t.app, other.token, other.email);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: userErrors.revokeSelf });
    expect(await actsAsAdmin(t.app, other)).toBe(true);
    await onlyAdmins(admin);
  });

  it('refuses the last admin their own role with the last-admin reason (409)', async () => {
    expect(await countAdmins(t.db, adminEmails)).toBe(1);
    const response = await revoke(t.app, admin.token, admin.email);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: userErrors.lastAdmin });
    expect(await actsAsAdmin(t.app, admin)).toBe(true);
  });

  it('refuses to take the role from an admin the ADMIN_EMAILS setting names (409)', async () => {
    await signUp(t.app, { name: 'Clinic Owner', email: OWNER });
    await t.db
      .updateTable('user')
      .set({ emailVerified: engine === 'postgres' ? true : 1 })
      .where('email', '=', OWNER)
      .execute();
    const response = await revoke(t.app, admin.token, OWNER);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: userErrors.configuredAdmin(OWNER) });
    await t.db.deleteFrom('user').where('email', '=', OWNER).execute();
  });

  it('answers 404 for an address nobody uses, 403 to a patient, 401 without a token', async () => {
    const ghost = await revoke(t.app, admin.token, 'ghost@mail.com');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json()).toMatchObject({ message: userErrors.noSuchUser('ghost@mail.com') });

    const patient = await signedUp(t.app, 'Curious Patient');
    expect((await revoke(t.app, patient.token, admin.email)).statusCode).toBe(403);
    expect(await actsAsAdmin(t.app, admin)).toBe(true);

    const anonymous = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/admin/${admin.email}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never leaves the clinic without an admin when two admins revoke each other at once', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [first, second] = await Promise.all([
        signedUpAdmin(t.app, `Racing Admin A${round}`),
        signedUpAdmin(t.app, `Racing Admin B${round}`),
      ]);
      await onlyAdmins(first, second);
      try {
        const answers = await Promise.all([
          revoke(t.app, first.token, second.email),
          revoke(t.app, second.token, first.email),
        ]);
        const statuses = answers.map((answer) => answer.statusCode).sort();
        expect(statuses[0]).toBe(200);
        // The other is refused: the last admin (409), or its caller is no admin any more (403).
        expect([403, 409]).toContain(statuses[1]);
        expect(await countAdmins(t.db, adminEmails)).toBe(1);
      } finally {
        await onlyAdmins(admin);
      }
    }
  });

  it('holds the last-admin rule when the two revocations race inside the database', async () => {
    const accounts = { db: t.db, engine: t.database.engine, adminEmails };
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = await Promise.all([
        signedUpAdmin(t.app, `Database Admin A${round}`),
        signedUpAdmin(t.app, `Database Admin B${round}`),
      ]);
      await onlyAdmins(first, second);
      try {
        const outcomes = await Promise.allSettled([
          revokeAdmin(accounts, adminActor(first), second),
          revokeAdmin(accounts, adminActor(second), first),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        expect(await countAdmins(t.db, adminEmails)).toBe(1);
        const logged = await t.db
          .selectFrom('audit_log')
          .select('subject_id')
          .where('action', '=', 'role.revoked')
          .where('subject_id', 'in', [first.id, second.id])
          .execute();
        expect(logged).toHaveLength(1);
      } finally {
        await onlyAdmins(admin);
      }
    }
  });
});
