import type { User } from '@doctors-portal/contract';
import { AdminRow, AdminTable, type Column, EmailCell } from '../../../components/admin-table';
import { CardCell, card } from '../../../components/responsive-table';
import { ButtonSpinner } from '../../../components/spinner';
import { UserAvatar } from '../../../components/user-avatar';

/** What is being done to a user right now, so that only that row's button shows it. */
export interface UserAction {
  email: string;
  kind: 'make-admin' | 'revoke-admin' | 'remove';
}

export interface UsersTableProps {
  users: User[];
  /** The signed-in admin's email: their own row offers no Remove and no Remove Admin. */
  me: string;
  busy: UserAction | null;
  onMakeAdmin: (user: User) => void;
  onRevokeAdmin: (user: User) => void;
  onRemove: (user: User) => void;
  labelledBy: string;
}

/** The name to show for a user: their display name, or their email's first part without one. */
export const userName = (user: User) => user.displayName.trim() || user.email.split('@')[0] || '';

const rowId = (user: User) => `user-${user._id}`;

const COLUMNS: Column[] = ['User', 'Email', 'Admin status', 'User status', { hidden: 'Actions' }];

/**
 * One page of users (spec: avatar with user name, email, admin status, user status), with
 * 'Make Admin' for non-admins, and 'Remove Admin' for other admins and 'Remove user' for anyone
 * but oneself: a table on large screens, cards on smaller ones. Each button's name says whom it
 * acts on after its visible text ('Make Admin, Jane Doe').
 */
export function UsersTable({
  users,
  me,
  busy,
  onMakeAdmin,
  onRevokeAdmin,
  onRemove,
  labelledBy,
}: UsersTableProps) {
  return (
    <AdminTable labelledBy={labelledBy} columns={COLUMNS}>
      {users.map((user) => {
        const name = userName(user);
        const own = user.email.toLowerCase() === me.toLowerCase();
        const admin = user.Role === 'Admin';
        const working = busy?.email === user.email ? busy.kind : null;
        return (
          <AdminRow key={user._id} id={rowId(user)}>
            <th
              scope="row"
              className={`font-normal xl:min-w-44 max-lg:min-w-0 max-lg:flex-1 ${card.plain}`}
            >
              <div className="flex items-center gap-3">
                <UserAvatar name={name} image={user.photoURL} />
                <div className="min-w-0">
                  <span className="block break-words font-semibold text-neutral">{name}</span>
                  {own ? <span className="block text-xs text-muted">That&rsquo;s you</span> : null}
                </div>
              </div>
            </th>
            <EmailCell address={user.email} />
            <CardCell label="Admin status">
              {admin ? (
                <div className="flex flex-wrap items-center gap-2">
                  <span className="badge badge-primary badge-sm font-semibold">Admin</span>
                  {own ? null : (
                    <button
                      type="button"
                      className="btn btn-ghost btn-xs whitespace-nowrap text-error hover:bg-error/10 max-lg:btn-sm"
                      aria-label={`Remove Admin, ${name}`}
                      onClick={() => onRevokeAdmin(user)}
                      disabled={working !== null}
                    >
                      {working === 'revoke-admin' ? <ButtonSpinner /> : null}
                      Remove Admin
                    </button>
                  )}
                </div>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary btn-outline btn-xs whitespace-nowrap max-lg:btn-sm"
                  aria-label={`Make Admin, ${name}`}
                  onClick={() => onMakeAdmin(user)}
                  disabled={working !== null}
                >
                  {working === 'make-admin' ? <ButtonSpinner /> : null}
                  Make Admin
                </button>
              )}
            </CardCell>
            <CardCell label="User status">
              {user.emailVerified ? (
                <span className="badge badge-success badge-soft badge-sm whitespace-nowrap font-medium">
                  Verified
                </span>
              ) : (
                <span className="badge badge-ghost badge-sm whitespace-nowrap font-medium">
                  Email not verified
                </span>
              )}
            </CardCell>
            <td className={`text-right ${card.actions} ${own ? 'max-lg:hidden' : ''}`}>
              {own ? null : (
                <button
                  type="button"
                  className="btn btn-ghost btn-xs whitespace-nowrap text-error hover:bg-error/10 max-lg:btn-sm"
                  aria-label={`Remove user, ${name}`}
                  data-row-action="remove"
                  onClick={() => onRemove(user)}
                  disabled={working !== null}
                >
                  {working === 'remove' ? <ButtonSpinner /> : null}
                  Remove user
                </button>
              )}
            </td>
          </AdminRow>
        );
      })}
    </AdminTable>
  );
}

/**
 * Puts the focus on the row's Remove button, for after Make Admin or Remove Admin took the
 * focused button away. That button stays the same element while the row re-renders.
 */
export function focusUserRow(user: User): boolean {
  const button = document
    .getElementById(rowId(user))
    ?.querySelector<HTMLButtonElement>('[data-row-action="remove"]');
  if (!button || button.disabled) return false;
  button.focus();
  return true;
}
