import { type AccountActor, recordAudit, userSubject } from '../audit/log.js';
import { type Accounts, changeWithAnAdminLeft } from './repository.js';

/**
 * Takes the admin role from `user` as `caller` (an admin) asks, and records it in the audit log
 * in the same transaction, as a grant is; the clinic keeps an admin (`changeWithAnAdminLeft`).
 * Answers 0 (and records nothing) when the account holds no admin role to take, e.g. someone
 * took it meanwhile.
 */
export async function revokeAdmin(
  accounts: Accounts,
  caller: AccountActor,
  user: { id: string; email: string },
): Promise<number> {
  return changeWithAnAdminLeft(
    accounts,
    caller.id,
    async (trx) => {
      const result = await trx
        .updateTable('user')
        .set({ role: null, updatedAt: new Date().toISOString() })
        .where('id', '=', user.id)
        .where('role', '=', 'admin')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    (trx) =>
      recordAudit(trx, {
        actor: caller,
        action: 'role.revoked',
        subject: userSubject(user),
        before: { role: 'admin' },
        after: { role: null },
      }),
  );
}
