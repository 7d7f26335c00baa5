import { messages, USERS_PAGE_SIZE, type User } from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Spinner } from '../../components/spinner';
import { adminKeys, makeAdmin, removeUser, usersPageQuery } from '../../features/admin/api/admin';
import { Pagination } from '../../features/admin/components/pagination';
import { EmptyState, TableLoading } from '../../features/admin/components/responsive-table';
import {
  focusUserRow,
  type UserAction,
  UsersTable,
  userName,
} from '../../features/admin/components/users-table';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';

/** The page in the address is 1-based ('?page=2'); anything else means the first page. */
function pageFrom(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
}

const reason = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

/** /dashboard/users (admin): every user, a page at a time, with Make Admin and Remove user. */
export default function UsersRoute() {
  const { user: me } = useAuth();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [search, setSearch] = useSearchParams();
  const page = pageFrom(search);
  const [busy, setBusy] = useState<UserAction | null>(null);
  const users = useQuery(usersPageQuery(page));

  const total = users.data?.total;
  const lastPage = total === undefined ? 0 : Math.max(0, Math.ceil(total / USERS_PAGE_SIZE) - 1);
  const topPages = useRef<HTMLDivElement>(null);
  const goTo = (next: number) =>
    setSearch(next > 0 ? { page: String(next + 1) } : {}, { preventScrollReset: true });
  /** Paging from below the list goes back to its top, to the same button above the list. */
  const turnPage = (next: number, placement: 'top' | 'bottom', button: 'previous' | 'next') => {
    goTo(next);
    if (placement === 'top') return;
    heading.current?.scrollIntoView({ block: 'start' });
    topPages.current
      ?.querySelector<HTMLButtonElement>(`[data-page="${button}"]`)
      ?.focus({ preventScroll: true });
  };

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

  const refresh = () => queryClient.invalidateQueries({ queryKey: adminKeys.users });

  const promote = async (user: User) => {
    setBusy({ email: user.email, kind: 'make-admin' });
    try {
      const { modifiedCount } = await makeAdmin(user.email);
      if (modifiedCount > 0) toast.success(messages.madeAdmin);
      else toast.info(`${userName(user)} is already an admin.`);
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.status === 403
          ? messages.makeAdminForbidden
          : reason(error, `${userName(user)} could not be made an admin. Please try again.`),
      );
    } finally {
      setBusy(null);
    }
    await refresh();
    // The button became a badge: keep focus in the row, on its Remove button.
    if (!focusUserRow(user)) heading.current?.focus();
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
    setBusy({ email: user.email, kind: 'remove' });
    try {
      const { deletedCount } = await removeUser(user.email);
      if (deletedCount > 0) toast.success(`${name} is removed.`);
      else toast.error(`${name} was already removed.`);
    } catch (error) {
      toast.error(reason(error, `${name} could not be removed. Please try again.`));
    } finally {
      setBusy(null);
    }
    await refresh();
    heading.current?.focus();
  };

  const data = users.data;

  return (
    <div className="flex flex-col gap-5">
      <div>
        <p className="eyebrow">Administration</p>
        <h1
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="heading-2 mt-2 text-neutral outline-none"
        >
          {total === undefined ? 'All Users' : `All Users: ${total}`}
        </h1>
      </div>

      {data ? (
        data.users.length > 0 ? (
          <>
            <div ref={topPages} className="empty:hidden">
              <Pagination
                page={page}
                pageSize={USERS_PAGE_SIZE}
                total={data.total}
                shown={data.users.length}
                label="Users"
                placement="top"
                onPage={(next, button) => turnPage(next, 'top', button)}
              />
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
                onRemove={(user) => void remove(user)}
                labelledBy={headingId}
              />
            </div>
            <Pagination
              page={page}
              pageSize={USERS_PAGE_SIZE}
              total={data.total}
              shown={data.users.length}
              label="Users"
              placement="bottom"
              onPage={(next, button) => turnPage(next, 'bottom', button)}
            />
          </>
        ) : pastTheEnd ? (
          <TableLoading>
            <Spinner label="Loading users…" />
          </TableLoading>
        ) : (
          <EmptyState title="No users yet">
            People who sign up for the portal will be listed here.
          </EmptyState>
        )
      ) : users.isError ? (
        <div className="flex flex-col items-start gap-3">
          <ErrorAlert>{`The users could not be loaded. ${users.error.message}`}</ErrorAlert>
          <button
            type="button"
            className="btn btn-primary btn-outline btn-sm"
            onClick={() => void users.refetch()}
            disabled={users.isFetching}
          >
            Try again
          </button>
        </div>
      ) : (
        <TableLoading>
          <Spinner label="Loading users…" />
        </TableLoading>
      )}
    </div>
  );
}
