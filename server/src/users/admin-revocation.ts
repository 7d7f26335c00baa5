import type { Kysely } from 'kysely';
import { type AccountActor, recordAudit, userSubject } from '../audit/log.js';
import type { Engine } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { adminCondition } from './repository.js';

/** Why a revocation did not happen; the transaction was rolled back. */
export class RevocationRefused extends Error {
  constructor(readonly reason: 'last-admin' | 'caller-not-admin') {
    super(reason);
    this.name = 'RevocationRefused';
  }
}

/**
 * Takes the admin role from `user` as `caller` (an admin) asks, and records it in the audit log
 * in the same transaction, as a grant is. Answers 0 (and records nothing) when the account holds
 * no admin role to take, e.g. someone took it meanwhile.
 *
 * One transaction holds the change and the check that an admin remains. On PostgreSQL it first
 * locks every admin's row, so two admins revoking each other at once are served one after the
 * other and the second finds no admin left; on SQLite the change comes first and takes the
 * database's write lock, which serialises the two.
 */
export async function revokeAdmin(
  db: Kysely<Database>,
  adminEmails: ReadonlySet<string>,
  user: { id: string; email: string },
  caller: AccountActor,
  engine: Engine,
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
    const result = await trx
      .updateTable('user')
      .set({ role: null, updatedAt: new Date().toISOString() })
      .where('id', '=', user.id)
      .where('role', '=', 'admin')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return 0;
    const admins = await trx
      .selectFrom('user')
      .select('id')
      .where(adminCondition(adminEmails))
      .execute();
    if (admins.length === 0) throw new RevocationRefused('last-admin');
    if (!admins.some((admin) => admin.id === caller.id)) {
      throw new RevocationRefused('caller-not-admin');
    }
    await recordAudit(trx, {
      actor: caller,
      action: 'role.revoked',
      subject: userSubject(user),
      before: { role: 'admin' },
      after: { role: null },
    });
    return 1;
  });
}
