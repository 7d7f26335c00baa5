import { messages, USERS_PAGE_SIZE, type User } from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { ApiError, reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { type UsersPage as PageOfUsers, usersPageQuery } from '../api/get-users';
import { useMakeAdmin } from '../api/make-admin';
import { useRemoveUser } from '../api/remove-user';
import { useRevokeAdmin } from '../api/revoke-admin';
import { Pagination, type PaginationProps } from './pagination';
import { focusUserRow, type UserAction, UsersTable, userName } from './users-table';

/** The page in the address is 1-based ('?page=2'); anything else means the first page. */
function pageFrom(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
}

const loadingUsers = <TableLoading label="Loading users…" />;

type Placement = PaginationProps['placement'];

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
  const lastPage = total === undefined ? 0 : Math.max(0, Math.ceil(total / USERS_PAGE_SIZE) - 1);
  const topPages = useRef<HTMLDivElement>(null);
  const goTo = (next: number) =>
    setSearch(next > 0 ? { page: String(next + 1) } : {}, { preventScrollReset: true });
  /** Paging from below the list goes back to its top, to the same button above the list. */
  const turnPage = (next: number, placement: Placement, button: 'previous' | 'next') => {
    goTo(next);
    if (placement === 'top') return;
    heading.ref.current?.scrollIntoView({ block: 'start' });
    topPages.current
      ?.querySelector<HTMLButtonElement>(`[data-page="${button}"]`)
      ?.focus({ preventScroll: true });
  };
  /** The paging above or below the list of `data`. */
  const pages = (data: PageOfUsers, placement: Placement) => (
    <Pagination
      page={page}
      pageSize={USERS_PAGE_SIZE}
      total={data.total}
      shown={data.users.length}
      label="Users"
      placement={placement}
      onPage={(next, button) => turnPage(next, placement, button)}
    />
  );

  // A page past the end (an old link, or the last user of the last page removed): show the last.
  const pastTheEnd = !users.isPlaceholderData && total !== undefined && page > lastPage;
  // biome-ignore lint/correctness/useExhaustiveDependencies: goTo only wraps setSearch.
  useEffect(() => {
    if (pastTheEnd) goTo(lastPage);
  }, [pastTheEnd, lastPage]);

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
    const confirmed = await confirm({
      message: `Make ${userName(user)} (${user.email}) an admin? They can then open every staff page, and manage users and doctors.`,
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

  return (
    <div className="flex flex-col gap-5">
      <PageHeading eyebrow="Administration" title="All Users" count={total} heading={heading} />

      <QueryState
        query={users}
        loading={loadingUsers}
        error={(error) => `The users could not be loaded. ${error.message}`}
        isEmpty={(data) => data.users.length === 0}
        empty={
          pastTheEnd ? (
            loadingUsers
          ) : (
            <EmptyState title="No users yet">
              People who sign up for the portal will be listed here.
            </EmptyState>
          )
        }
      >
        {(data) => (
          <>
            <div ref={topPages} className="empty:hidden">
              {pages(data, 'top')}
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
            {pages(data, 'bottom')}
          </>
        )}
      </QueryState>
    </div>
  );
}
