import { type Kysely, sql, type Transaction } from 'kysely';
import {
  type AccountActor,
  type AuditActor,
  recordAudit,
  systemActor,
  userSubject,
} from '../audit/log.js';
import { isAdmin } from '../auth/current-user.js';
import { compiledOnce } from '../db/compiled-once.js';
import type { Engine } from '../db/database.js';
import type { Database, UserTable } from '../db/schema.js';

/**
 * Gives or takes the admin role (the admin command line's way, by `actor`: the system unless
 * said), recording the change, with the role before and after it, in the audit log in the same
 * transaction; answers whether an account with that email exists.
 */
export async function setAdmin(
  db: Kysely<Database>,
  email: string,
  admin: boolean,
  actor: AuditActor = systemActor('admin-cli'),
): Promise<boolean> {
  const role = admin ? 'admin' : null;
  return db.transaction().execute(async (tx) => {
    // A write first, which answers the role as it was: it locks the row on PostgreSQL and
    // takes SQLite's write lock before anything is read.
    const user = await tx
      .updateTable('user')
      .set({ updatedAt: new Date().toISOString() })
      .where('email', '=', email.trim().toLowerCase())
      .returning(['id', 'email', 'role'])
      .executeTakeFirst();
    if (!user) return false;
    await tx.updateTable('user').set({ role }).where('id', '=', user.id).execute();
    await recordAudit(tx, {
      actor,
      action: admin ? 'role.granted' : 'role.revoked',
      subject: userSubject(user),
      before: { role: user.role },
      after: { role },
    });
    return true;
  });
}

/** Fills the profile's gaps (`fillProfileFromBooking`): compiled once, as every booking does. */
const fillProfile = compiledOnce(
  (db: Kysely<Database>, userId: string, phone: string, age: number, updatedAt: string) =>
    db
      .updateTable('user')
      .set((eb) => ({
        phone: eb.fn.coalesce('phone', eb.val(phone)),
        age: eb.fn.coalesce('age', eb.val(age)),
        updatedAt,
      }))
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('phone', 'is', null), eb('age', 'is', null)])),
);

/**
 * Gives the account the phone and age of a booking where it has none, in the booking's
 * transaction: what the patient already has is never overwritten, so a later booking with
 * another phone leaves the profile as it is.
 */
export async function fillProfileFromBooking(
  db: Kysely<Database>,
  userId: string,
  booking: { phone: string; age: number },
): Promise<void> {
  await fillProfile(db, userId, booking.phone, booking.age, new Date().toISOString());
}

/** The columns the admin rule and the users list need. */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  image: string | null;
  emailVerified: boolean;
  createdAt: string;
  admin: boolean;
}

type UserRow = Pick<
  UserTable,
  'id' | 'name' | 'email' | 'image' | 'emailVerified' | 'createdAt' | 'role'
>;

function toRecord(row: UserRow, adminEmails: ReadonlySet<string>): UserRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    image: row.image,
    emailVerified: Boolean(row.emailVerified),
    createdAt: new Date(row.createdAt).toISOString(),
    admin: isAdmin(row, adminEmails),
  };
}

const USER_COLUMNS = [
  'id',
  'name',
  'email',
  'image',
  'emailVerified',
  'createdAt',
  'role',
] as const;

/** One page of accounts, oldest first, and how many there are in all. */
export async function listUsers(
  db: Kysely<Database>,
  adminEmails: ReadonlySet<string>,
  page: { limit: number; offset: number },
): Promise<{ users: UserRecord[]; total: number }> {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('user')
      .select(USER_COLUMNS)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { users: rows.map((row) => toRecord(row, adminEmails)), total: Number(count.total) };
}

/** The account using `email` (compared case-insensitively, as sign-up stores it lowercased). */
export async function findUserByEmail(
  db: Kysely<Database>,
  adminEmails: ReadonlySet<string>,
  email: string,
): Promise<UserRecord | null> {
  const row = await db
    .selectFrom('user')
    .select(USER_COLUMNS)
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return row ? toRecord(row, adminEmails) : null;
}

/**
 * Gives the admin role to a patient, as `actor` asks, and records it in the audit log in the same
 * transaction; answers 0 (and records nothing) when someone made them admin meanwhile.
 */
export async function promoteToAdmin(
  db: Kysely<Database>,
  user: { id: string; email: string },
  actor: AuditActor,
): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const result = await tx
      .updateTable('user')
      .set({ role: 'admin', updatedAt: new Date().toISOString() })
      .where('id', '=', user.id)
      .where((eb) => eb.or([eb('role', 'is', null), eb('role', '!=', 'admin')]))
      .executeTakeFirst();
    const promoted = Number(result.numUpdatedRows);
    if (promoted > 0) {
      await recordAudit(tx, {
        actor,
        action: 'role.granted',
        subject: userSubject(user),
        before: { role: null },
        after: { role: 'admin' },
      });
    }
    return promoted;
  });
}

/** The rule of `isAdmin` as a condition on the user table. */
function adminCondition(adminEmails: ReadonlySet<string>) {
  const listed = [...adminEmails];
  return sql<boolean>`(${sql.ref('role')} = 'admin'${
    listed.length > 0
      ? sql` or (${sql.ref('emailVerified')} = ${sql.lit(true)} and ${sql.ref('email')} in (${sql.join(listed)}))`
      : sql``
  })`;
}

/** How many administrators the clinic has. */
export async function countAdmins(
  db: Kysely<Database>,
  adminEmails: ReadonlySet<string>,
): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('admins'))
    .where(adminCondition(adminEmails))
    .executeTakeFirstOrThrow();
  return Number(row.admins);
}

/**
 * The accounts an admin changes: their database and its engine, and the ADMIN_EMAILS setting
 * (its verified addresses are admins too).
 */
export interface Accounts {
  db: Kysely<Database>;
  engine: Engine;
  adminEmails: ReadonlySet<string>;
}

/** Why an admin's change to an account did not happen; the transaction was rolled back. */
export class AdminChangeRefused extends Error {
  constructor(readonly reason: 'last-admin' | 'caller-not-admin') {
    super(reason);
    this.name = 'AdminChangeRefused';
  }
}

/**
 * Runs an admin's change to the accounts (`change` answers how many it changed; 0 means there
 * was nothing to do) in one transaction with the check that the clinic keeps an admin, the
 * caller among them, then `record`s it. On PostgreSQL every admin's row is locked first, so that
 * two admins acting on each other at once are served one after the other and the second finds
 * too few admins left; on SQLite the change comes first and takes the database's write lock,
 * which serialises the two.
 */
export async function changeWithAnAdminLeft(
  { db, engine, adminEmails }: Accounts,
  callerId: string,
  change: (trx: Transaction<Database>) => Promise<number>,
  record: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (engine === 'postgres') {
      await trx
        .selectFrom('user')
        .select('id')
        .where(adminCondition(adminEmails))
        .orderBy('id')
        .forUpdate()
        .execute();
    }
    if ((await change(trx)) === 0) return 0;
    const admins = await trx
      .selectFrom('user')
      .select('id')
      .where(adminCondition(adminEmails))
      .execute();
    if (admins.length === 0) throw new AdminChangeRefused('last-admin');
    if (!admins.some((admin) => admin.id === callerId)) {
      throw new AdminChangeRefused('caller-not-admin');
    }
    await record(trx);
    return 1;
  });
}

/**
 * Deletes an account as `caller` (an admin) asks: its sessions and sign-in methods go with it
 * (foreign keys cascade), so its access tokens stop at once; its bookings stay with the clinic,
 * their `patient_id` set to null (the patient's name and email stay on them). The removal is
 * recorded in the audit log in the same transaction, which keeps an admin
 * (`changeWithAnAdminLeft`). The answer is the number of accounts deleted: 0 when the account
 * was already gone.
 */
export async function removeUser(
  accounts: Accounts,
  caller: AccountActor,
  user: Pick<UserRecord, 'id' | 'name' | 'email' | 'admin'>,
): Promise<number> {
  return changeWithAnAdminLeft(
    accounts,
    caller.id,
    async (trx) => {
      const deleted = await trx.deleteFrom('user').where('id', '=', user.id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return 0;
      await deleteVerifications(trx, user.id);
      return 1;
    },
    (trx) =>
      recordAudit(trx, {
        actor: caller,
        action: 'user.removed',
        subject: userSubject(user),
        before: { name: user.name, email: user.email, role: user.admin ? 'admin' : null },
      }),
  );
}

/** Pending password-reset and similar tokens of the account (the auth library keys them by id). */
export async function deleteVerifications(trx: Kysely<Database>, userId: string) {
  await trx
    .withTables<{ verification: { id: string; value: string } }>()
    .deleteFrom('verification')
    .where('value', '=', userId)
    .execute();
}
