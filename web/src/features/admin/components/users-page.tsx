import { messages, USERS_PAGE_SIZE, type User } from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { ApiError, reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { usersPageQuery } from '../api/get-users';
import { useMakeAdmin } from '../api/make-admin';
import { useRemoveUser } from '../api/remove-user';
import { useRevokeAdmin } from '../api/revoke-admin';
import { pageFrom, usePaging } from './pagination';
import { focusUserRow, type UserAction, UsersTable, userName } from './users-table';

const loadingUsers = <TableLoading label="Loading users…" />;

/** Where the focus goes once the list shows a change: the row's Remove button, or the heading. */
interface FocusAfter {
  row?: User;
}

/**
 * /dashboard/users (admin, spec section 2, Users page): every user, a page at a time, with Make
 * Admin, Remove Admin and Remove user, each asked first.
 */
export function UsersPage() {
  const { user: me } = useAuth();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const heading = useScreenHeading();
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search);
  const users = useQuery(usersPageQuery(page));
  const makeAdmin = useMakeAdmin();
  const revokeAdmin = useRevokeAdmin();
  const removeUser = useRemoveUser();
  const [focusAfter, setFocusAfter] = useState<FocusAfter | null>(null);

  const busy: UserAction | null = makeAdmin.isPending
    ? { email: makeAdmin.variables, kind: 'make-admin' }
    : revokeAdmin.isPending
      ? { email: revokeAdmin.variables, kind: 'revoke-admin' }
      : removeUser.isPending
        ? { email: removeUser.variables, kind: 'remove' }
        : null;

  const total = users.data?.total;
  const { lastPage, pastTheEnd, topPages, pages } = usePaging({
    page,
    pageSize: USERS_PAGE_SIZE,
    label: 'Users',
    total,
    settled: !users.isPlaceholderData,
    goTo: (next) =>
      setSearch(next > 0 ? { page: String(next + 1) } : {}, { preventScrollReset: true }),
    heading: heading.ref,
  });

  // Paging through is instant when the next page is already here.
  useEffect(() => {
    if (total !== undefined && page < lastPage) {
      void queryClient.prefetchQuery(usersPageQuery(page + 1));
    }
  }, [queryClient, page, lastPage, total]);

  // Once the row's buttons are enabled again: after Make Admin the focused button became a
  // badge, so the focus stays in the row, on its Remove button.
  useEffect(() => {
    if (!focusAfter || busy) return;
    if (!(focusAfter.row && focusUserRow(focusAfter.row))) heading.ref.current?.focus();
    setFocusAfter(null);
  }, [focusAfter, busy, heading.ref.current?.focus]);

  const promote = async (user: User) => {
    // Anyone can sign up with any address: an unverified one may not be the colleague's.
    const unverified = user.emailVerified
      ? ''
      : ` ${user.email} is not verified yet: anyone could have signed up with it, so make sure it is theirs.`;
    const confirmed = await confirm({
      message: `Make ${userName(user)} (${user.email}) an admin? They can then open every staff page, and manage users and doctors.${unverified}`,
      confirmLabel: 'Make Admin',
    });
    if (!confirmed) return;
    try {
      const { modifiedCount } = await makeAdmin.mutateAsync(user.email);
      if (modifiedCount > 0) toast.success(messages.madeAdmin);
      else toast.info(`${userName(user)} is already an admin.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(
        error instanceof ApiError && error.status === 403
          ? messages.makeAdminForbidden
          : reasonOf(error, `${userName(user)} could not be made an admin. Please try again.`),
      );
    }
    setFocusAfter({ row: user });
  };

  const demote = async (user: User) => {
    const name = userName(user);
    const confirmed = await confirm({
      message: `Take the admin role from ${name} (${user.email})? They keep their account and bookings, but can no longer open the staff pages.`,
      confirmLabel: 'Remove Admin',
      cancelLabel: 'Keep admin',
      danger: true,
    });
    if (!confirmed) return;
    try {
      const { modifiedCount } = await revokeAdmin.mutateAsync(user.email);
      if (modifiedCount > 0) toast.success(`${name} is no longer an admin.`);
      else toast.info(`${name} is not an admin.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, `${name} could not be removed as an admin. Please try again.`));
    }
    setFocusAfter({ row: user });
  };

  const remove = async (user: User) => {
    const name = userName(user);
    const confirmed = await confirm({
      message: `Remove ${name} (${user.email})? Their account and sign-in end; the clinic keeps their booking records.`,
      confirmLabel: 'Remove user',
      cancelLabel: 'Keep',
      danger: true,
    });
    if (!confirmed) return;
    try {
      const { deletedCount } = await removeUser.mutateAsync(user.email);
      if (deletedCount > 0) toast.success(`${name} is removed.`);
      else toast.error(`${name} was already removed.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, `${name} could not be removed. Please try again.`));
    }
    setFocusAfter({});
  };

  // A page past the end is on its way to the last one.
  const noUsers = pastTheEnd ? (
    loadingUsers
  ) : (
    <EmptyState title="No users yet">
      People who sign up for the portal will be listed here.
    </EmptyState>
  );

  return (
    <div className="flex flex-col gap-5">
      <PageHeading eyebrow="Administration" title="All Users" count={total} heading={heading} />

      <QueryState
        query={users}
        loading={loadingUsers}
        what="The users"
        isEmpty={(data) => data.users.length === 0}
        empty={noUsers}
      >
        {(data) => (
          <>
            <div ref={topPages} className="empty:hidden">
              {pages(data.users.length, 'top')}
            </div>
            <div
              className={`transition-opacity ${users.isPlaceholderData ? 'opacity-60' : ''}`}
              aria-busy={users.isPlaceholderData || undefined}
            >
              <UsersTable
                users={data.users}
                me={me?.email ?? ''}
                busy={busy}
                onMakeAdmin={(user) => void promote(user)}
                onRevokeAdmin={(user) => void demote(user)}
                onRemove={(user) => void remove(user)}
                labelledBy={heading.id}
              />
            </div>
            {pages(data.users.length, 'bottom')}
          </>
        )}
      </QueryState>
    </div>
  );
}
