import { randomUUID } from 'node:crypto';
import { messages, type User } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, signUp } from '../../test/accounts.js';
import { type Person, signedUp, signedUpAdmin } from '../../test/admin-fixtures.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { adminActor } from '../audit/log.js';
import { countAdmins, removeUser as removeUserRecord, setAdmin } from './repository.js';
import { userErrors } from './routes.js';

const listUsers = (app: FastifyInstance, token: string, query = '') =>
  app.inject({ method: 'GET', url: `/api/users${query}`, headers: bearer(token) });

const makeAdmin = (app: FastifyInstance, token: string, email: string) =>
  app.inject({ method: 'PUT', url: `/api/user/admin/${email}`, headers: bearer(token) });

const removeUser = (app: FastifyInstance, token: string, email: string) =>
  app.inject({ method: 'DELETE', url: `/api/user/${email}`, headers: bearer(token) });

/** Whether the token still opens the API (the admin check answers any signed-in user). */
async function tokenWorks(app: FastifyInstance, person: Person) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/admin/${person.email}`,
    headers: bearer(person.token),
  });
  return response.statusCode === 200;
}

describe(`the admin's user list (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let listed: Person;

  beforeAll(async () => {
    t = await buildTestApp({ env: { ADMIN_EMAILS: 'owner@clinic.com' } });
    admin = await signedUpAdmin(t.app, 'Clinic Admin');
    for (let index = 0; index < 4; index += 1) await signUp(t.app, { name: `Patient ${index}` });
    listed = await signedUp(t.app, 'Listed Owner');
    // Verified owners of an ADMIN_EMAILS address are admins too.
    await signUp(t.app, { name: 'Clinic Owner', email: 'owner@clinic.com' });
    await t.db
      .updateTable('user')
      .set({ emailVerified: engine === 'postgres' ? true : 1 })
      .where('email', '=', 'owner@clinic.com')
      .execute();
  });
  afterAll(() => t.close());

  it('lists every account oldest first, with the total in X-Total-Count', async () => {
    const response = await listUsers(t.app, admin.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-total-count']).toBe('7');
    const users = response.json() as User[];
    expect(users).toHaveLength(7);
    const created = users.map((user) => user.createdAt);
    expect(created).toEqual([...created].sort());
    expect(users[0]).toMatchObject({ email: admin.email, displayName: 'Clinic Admin' });
  });

  it('shows the spec’s User fields: Role "Admin" for admins only', async () => {
    const users = (await listUsers(t.app, admin.token)).json() as User[];
    const byEmail = new Map(users.map((user) => [user.email, user]));
    expect(byEmail.get(admin.email)).toEqual({
      _id: expect.any(String),
      email: admin.email,
      displayName: 'Clinic Admin',
      photoURL: null,
      Role: 'Admin',
      emailVerified: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(byEmail.get('owner@clinic.com')?.Role).toBe('Admin');
    expect(byEmail.get(listed.email)).not.toHaveProperty('Role');
  });

  it('pages with limit and offset', async () => {
    const all = (await listUsers(t.app, admin.token)).json() as User[];
    const page = await listUsers(t.app, admin.token, '?limit=2&offset=3');
    expect(page.headers['x-total-count']).toBe('7');
    expect((page.json() as User[]).map((user) => user._id)).toEqual(
      all.slice(3, 5).map((user) => user._id),
    );
    const past = await listUsers(t.app, admin.token, '?offset=50');
    expect(past.json()).toEqual([]);
  });

  it.each(['?limit=0', '?limit=201', '?offset=-1', '?limit=ten'])(
    'refuses %s with 400',
    async (query) => {
      const response = await listUsers(t.app, admin.token, query);
      expect(response.statusCode).toBe(400);
    },
  );
});

describe(`making an admin (${engine})`, () => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
  });
  afterAll(() => t.close());

  it('promotes a patient: modifiedCount 1, and their next call is an admin’s', async () => {
    const patient = await signedUp(t.app, 'Omar Haddad');
    expect((await listUsers(t.app, patient.token)).statusCode).toBe(403);

    const response = await makeAdmin(t.app, admin.token, patient.email);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ modifiedCount: 1 });
    expect((await listUsers(t.app, patient.token)).statusCode).toBe(200);
  });

  it('answers modifiedCount 0 for someone already admin, whatever the case of the address', async () => {
    const other = await signedUpAdmin(t.app, 'Second Admin');
    const response = await makeAdmin(t.app, admin.token, other.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ modifiedCount: 0 });
  });

  it('answers 404 with a clear message for an address nobody signed up with', async () => {
    const response = await makeAdmin(t.app, admin.token, 'nobody@mail.com');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: userErrors.noSuchUser('nobody@mail.com') });
  });

  it('answers a patient with 403 and the spec’s message, promoting nobody', async () => {
    const patient = await signedUp(t.app, 'Sneaky Patient');
    const response = await makeAdmin(t.app, patient.token, patient.email);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: messages.makeAdminForbidden,
    });
    expect(response.json().message).toBe('Without an admin! Let alone Add a admin');
    expect((await listUsers(t.app, patient.token)).statusCode).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'PUT', url: `/api/user/admin/${admin.email}` });
    expect(response.statusCode).toBe(401);
  });
});

describe(`removing a user (${engine})`, () => {
  let t: TestApp;
  let admin: Person;

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await signedUpAdmin(t.app);
  });
  afterAll(() => t.close());

  const userIdOf = async (person: Person) =>
    (
      await t.db
        .selectFrom('user')
        .select('id')
        .where('email', '=', person.email)
        .executeTakeFirstOrThrow()
    ).id;

  /** Makes exactly these people the clinic's admins. */
  async function onlyAdmins(...people: Person[]) {
    await t.db.updateTable('user').set({ role: null }).execute();
    for (const person of people) await setAdmin(t.db, person.email, true);
  }

  async function bookingFor(person: Person) {
    const userId = await userIdOf(person);
    const treatment = await t.db
      .selectFrom('treatment')
      .select(['id', 'name', 'price_cents'])
      .executeTakeFirstOrThrow();
    const id = randomUUID();
    await t.db
      .insertInto('booking')
      .values({
        id,
        treatment_id: treatment.id,
        treatment_name: treatment.name,
        price_cents: treatment.price_cents,
        date: clinicDay(61),
        slot: '10:00 AM - 10:30 AM',
        patient_id: userId,
        patient_email: person.email,
        patient_name: person.name,
        phone: '+1 555 010 2030',
        age: 34,
        created_at: new Date().toISOString(),
        paid_at: null,
        transaction_id: null,
      })
      .execute();
    return { id, userId };
  }

  it('deletes the account and its sessions, ending its tokens at once, and keeps its bookings', async () => {
    const patient = await signedUp(t.app, 'Leaving Patient');
    const booking = await bookingFor(patient);
    expect(await tokenWorks(t.app, patient)).toBe(true);

    const response = await removeUser(t.app, admin.token, patient.email);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deletedCount: 1 });
    expect(await tokenWorks(t.app, patient)).toBe(false);
    const sessions = await t.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', booking.userId)
      .execute();
    expect(sessions).toEqual([]);
    const accounts = await t.db
      .selectFrom('account')
      .select('id')
      .where('userId', '=', booking.userId)
      .execute();
    expect(accounts).toEqual([]);
    const kept = await t.db
      .selectFrom('booking')
      .selectAll()
      .where('id', '=', booking.id)
      .executeTakeFirst();
    expect(kept).toMatchObject({
      patient_id: null,
      patient_email: patient.email,
      patient_name: 'Leaving Patient',
    });
    // Nor can the removed person sign in again with their password.
    const { response: signInAgain } = await signIn(t.app, patient.email, 'plaque-free-smile-42');
    expect(signInAgain.statusCode).toBe(401);
    const users = (await listUsers(t.app, admin.token)).json() as User[];
    expect(users.map((user) => user.email)).not.toContain(patient.email);
  });

  it('removes the account’s pending password-reset tokens', async () => {
    const patient = await signedUp(t.app, 'Forgetful Patient');
    const userId = await userIdOf(patient);
    const verification = t.db.withTables<{
      verification: {
        id: string;
        identifier: string;
        value: string;
        expiresAt: string;
        createdAt: string;
        updatedAt: string;
      };
    }>();
    const now = new Date().toISOString();
    await verification
      .insertInto('verification')
      .values({
        id: randomUUID(),
        identifier: 'reset-password:abc',
        value: userId,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdAt: now,
        updatedAt: now,
      })
      .execute();

    await removeUser(t.app, admin.token, patient.email);

    const left = await verification
      .selectFrom('verification')
      .select('id')
      .where('value', '=', userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('can remove another admin while one remains', async () => {
    const other = await signedUpAdmin(t.app, 'Other Admin');
    const response = await removeUser(t.app, admin.token, other.email);
    expect(response.json()).toEqual({ deletedCount: 1 });
    expect(await countAdmins(t.db, new Set())).toBe(1);
  });

  it('refuses to remove the last admin (409), who stays signed in', async () => {
    expect(await countAdmins(t.db, new Set())).toBe(1);
    const response = await removeUser(t.app, admin.token, admin.email);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: 'The clinic needs at least one admin.' });
    expect(await tokenWorks(t.app, admin)).toBe(true);
  });

  it('refuses an admin removing themself while other admins exist (409)', async () => {
    const other = await signedUpAdmin(t.app, 'Third Admin');
    const response = await removeUser(t.app, other.token, other.email.toUpperCase());
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: userErrors.removeSelf });
    await onlyAdmins(admin);
  });

  it('never leaves the clinic without an admin when two admins remove each other at once', async () => {
    const [first, second] = await Promise.all([
      signedUpAdmin(t.app, 'First Of Two'),
      signedUpAdmin(t.app, 'Second Of Two'),
    ]);
    await onlyAdmins(first, second);
    try {
      const answers = await Promise.all([
        removeUser(t.app, first.token, second.email),
        removeUser(t.app, second.token, first.email),
      ]);
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses[0]).toBe(200);
      // The other is refused: the last admin (409), or its caller is already gone (401).
      expect([401, 409]).toContain(statuses[1]);
      expect(await countAdmins(t.db, new Set())).toBe(1);
    } finally {
      await onlyAdmins(admin);
    }
  });

  it('holds the last-admin rule when the two removals race inside the database', async () => {
    const adminEmails = new Set<string>();
    const accounts = { db: t.db, engine: t.database.engine, adminEmails };
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = await Promise.all([
        signedUpAdmin(t.app, `Racing Admin A${round}`),
        signedUpAdmin(t.app, `Racing Admin B${round}`),
      ]);
      await onlyAdmins(first, second);
      try {
        const [firstId, secondId] = await Promise.all([userIdOf(first), userIdOf(second)]);
        const one = { ...first, id: firstId, admin: true };
        const other = { ...second, id: secondId, admin: true };
        const outcomes = await Promise.allSettled([
          removeUserRecord(accounts, adminActor(one), other),
          removeUserRecord(accounts, adminActor(other), one),
        ]);
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        expect(await countAdmins(t.db, adminEmails)).toBe(1);
      } finally {
        await onlyAdmins(admin);
      }
    }
  });

  it('answers 404 for an address nobody uses', async () => {
    const response = await removeUser(t.app, admin.token, 'ghost@mail.com');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: userErrors.noSuchUser('ghost@mail.com') });
  });

  it('answers 403 to a patient and removes nobody', async () => {
    const patient = await signedUp(t.app, 'Curious Patient');
    const victim = await signedUp(t.app, 'Other Patient');
    const response = await removeUser(t.app, patient.token, victim.email);
    expect(response.statusCode).toBe(403);
    expect(await tokenWorks(t.app, victim)).toBe(true);
  });
});
