import { USERS_PAGE_SIZE, type User, userSchema } from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiWithHeaders, decodeAnswer } from '../../../lib/api-client';
import { adminKeys } from './keys';

export interface UsersPage {
  users: User[];
  /** How many users there are in all (the `X-Total-Count` header). */
  total: number;
}

/** `GET /api/users?limit=&offset=` (admin): one page (0-based) of users, oldest first. */
export async function getUsers(page: number, signal?: AbortSignal): Promise<UsersPage> {
  const { data, headers } = await apiWithHeaders<unknown>(
    `/users?limit=${USERS_PAGE_SIZE}&offset=${page * USERS_PAGE_SIZE}`,
    { signal },
  );
  const users = decodeAnswer(userSchema.array(), data);
  const total = Number(headers.get('x-total-count'));
  // Without the header, what this page holds is all that is known.
  return {
    users,
    total: Number.isFinite(total) && total >= 0 ? total : page * USERS_PAGE_SIZE + users.length,
  };
}

/** While the next page loads the previous one stays on screen, so the table does not flash empty. */
export const usersPageQuery = (page: number) =>
  queryOptions({
    queryKey: adminKeys.usersPage(page),
    queryFn: ({ signal }) => getUsers(page, signal),
    placeholderData: keepPreviousData,
  });
