import {
  type Doctor,
  type NewDoctor,
  type Service,
  USERS_PAGE_SIZE,
  type User,
} from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, apiWithHeaders } from '../../../lib/api-client';

/**
 * The administration calls (spec section 7): users and roles, the specialties, photo upload and
 * doctors. Every call but the services list needs an admin's bearer token; the server refuses
 * anyone else with 401/403.
 */
export const adminKeys = {
  /** Every page of the users list: invalidate this after any change to a user. */
  users: ['admin', 'users'] as const,
  usersPage: (page: number) => ['admin', 'users', page] as const,
  doctors: ['admin', 'doctors'] as const,
  services: ['services'] as const,
};

export interface UsersPage {
  users: User[];
  /** How many users there are in all (the `X-Total-Count` header). */
  total: number;
}

/**
 * `GET /api/users?limit=&offset=`: one page (0-based) of users, oldest first. While the next page
 * loads the previous one stays on screen, so the table does not flash empty.
 */
export const usersPageQuery = (page: number) =>
  queryOptions({
    queryKey: adminKeys.usersPage(page),
    queryFn: async ({ signal }): Promise<UsersPage> => {
      const { data, headers } = await apiWithHeaders<User[]>(
        `/users?limit=${USERS_PAGE_SIZE}&offset=${page * USERS_PAGE_SIZE}`,
        { signal },
      );
      const total = Number(headers.get('x-total-count'));
      // Without the header, what this page holds is all that is known.
      return {
        users: data,
        total: Number.isFinite(total) && total >= 0 ? total : page * USERS_PAGE_SIZE + data.length,
      };
    },
    placeholderData: keepPreviousData,
  });

/** `PUT /api/user/admin/:email`: `modifiedCount` is 1 when the user became an admin. */
export const makeAdmin = (email: string) =>
  api<{ modifiedCount: number }>(`/user/admin/${encodeURIComponent(email)}`, { method: 'PUT' });

/**
 * `DELETE /api/user/:email`: removes the account and ends its sessions; the clinic keeps the
 * bookings. Removing oneself or the last admin answers 409 with the reason.
 */
export const removeUser = (email: string) =>
  api<{ deletedCount: number }>(`/user/${encodeURIComponent(email)}`, { method: 'DELETE' });

/** `GET /api/service` (public): the specialties a doctor can have. */
export const servicesQuery = queryOptions({
  queryKey: adminKeys.services,
  queryFn: ({ signal }) => api<Service[]>('/service', { signal, anonymous: true }),
  staleTime: 60 * 60 * 1000,
});

/** `POST /api/image` (multipart, field `image`): answers the stored photo's URL. */
export async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  const answer = await api<{ success: boolean; data?: { url?: string } }>('/image', {
    method: 'POST',
    body,
  });
  const url = answer.success ? answer.data?.url : undefined;
  if (!url) throw new Error('The photo could not be stored. Please try again.');
  return url;
}

/** `POST /api/doctor`: `insertedId` on success; a doctor with the same email answers 409. */
export const addDoctor = (doctor: NewDoctor) =>
  api<{ insertedId?: string }>('/doctor', { method: 'POST', body: { ...doctor } });

/** `GET /api/doctor`: every doctor. */
export const doctorsQuery = queryOptions({
  queryKey: adminKeys.doctors,
  queryFn: ({ signal }) => api<Doctor[]>('/doctor', { signal }),
});

/** `DELETE /api/doctor/:email`: `deletedCount` is 1 when the doctor (and their photo) went. */
export const deleteDoctor = (email: string) =>
  api<{ deletedCount: number }>(`/doctor/${encodeURIComponent(email)}`, { method: 'DELETE' });
