import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../src/db/schema.js';

/** Signing in through the API as a browser would: cookies from the auth library, then a token. */
export interface Account {
  /** The account's id (a booking belongs to it). */
  id: string;
  email: string;
  password: string;
  cookie: string;
}

function cookieOf(setCookie: string | string[] | undefined): string {
  return [setCookie ?? []]
    .flat()
    .map((cookie) => cookie.split(';', 1)[0])
    .join('; ');
}

let counter = 0;
/** Each call comes from a client address of its own unless one is given, as patients would. */
export const nextClientIp = () => {
  counter += 1;
  return `10.1.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
};

export function authRequest(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: { cookie?: string; ip?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    remoteAddress: options.ip ?? nextClientIp(),
    headers: {
      origin: app.config.publicUrl,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: body as Record<string, unknown>,
  });
}

/**
 * A fresh patient account, signed in. Its address is marked verified (as following the mail's
 * link would) unless `verified: false`: booking and paying need a verified address.
 */
export async function signUp(
  app: FastifyInstance,
  overrides: { name?: string; email?: string; password?: string; verified?: boolean } = {},
): Promise<Account> {
  counter += 1;
  const email = overrides.email ?? `patient${counter}${Date.now()}@mail.com`;
  const password = overrides.password ?? 'plaque-free-smile-42';
  const response = await authRequest(app, '/sign-up/email', {
    name: overrides.name ?? `Patient ${counter}`,
    email,
    password,
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  if (overrides.verified !== false) await markVerified(app.db, email);
  const { id } = await app.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id, email, password, cookie: cookieOf(response.headers['set-cookie']) };
}

/** Marks an address verified, as following the verification mail's link does. */
export async function markVerified(db: Kysely<Database>, email: string): Promise<void> {
  await db
    .updateTable('user')
    .set({ emailVerified: sql<boolean>`true` })
    .where('email', '=', email.toLowerCase())
    .execute();
}

export async function signIn(app: FastifyInstance, email: string, password: string, ip?: string) {
  const response = await authRequest(app, '/sign-in/email', { email, password }, { ip });
  return { response, cookie: cookieOf(response.headers['set-cookie']) };
}

/** The API access token for a signed-in account (PUT /api/user/{email}). */
export async function accessToken(
  app: FastifyInstance,
  account: Pick<Account, 'email' | 'cookie'>,
) {
  const response = await app.inject({
    method: 'PUT',
    url: `/api/user/${account.email}`,
    headers: { cookie: account.cookie, origin: app.config.publicUrl },
    payload: { email: account.email },
  });
  if (response.statusCode !== 200) throw new Error(`token sync failed: ${response.body}`);
  return (response.json() as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A patient written straight into the auth tables, with a live session. */
export interface SeededPatient {
  userId: string;
  sessionId: string;
  name: string;
  email: string;
}

/**
 * Many patients at once, written straight into the auth tables with a session each that lives a
 * day: for tests that measure bookings, not password hashing (the sign-up path has its own).
 */
export async function seedPatients(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  count: number,
): Promise<SeededPatient[]> {
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
  const people = Array.from({ length: count }, (_, index) => {
    const userId = randomUUID();
    return {
      userId,
      sessionId: randomUUID(),
      name: `Crowd Patient ${index + 1}`,
      email: `crowd-${index + 1}-${userId.slice(0, 8)}@mail.com`,
    };
  });
  await db
    .insertInto('user')
    .values(
      people.map((person) => ({
        id: person.userId,
        name: person.name,
        email: person.email,
        emailVerified: engine === 'postgres' ? true : 1,
        image: null,
        createdAt: now,
        updatedAt: now,
        role: null,
      })),
    )
    .execute();
  await db
    .withTables<{ session: { createdAt: string; updatedAt: string } }>()
    .insertInto('session')
    .values(
      people.map((person) => ({
        id: person.sessionId,
        token: randomBytes(24).toString('hex'),
        expiresAt: expires,
        createdAt: now,
        updatedAt: now,
        userId: person.userId,
      })),
    )
    .execute();
  return people;
}
