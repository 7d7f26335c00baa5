import { doctorsKey } from '../../../api/doctors';

/** The query keys of the administration screens. */
export const adminKeys = {
  /** Every page of the users list: invalidate this after any change to a user. */
  users: ['admin', 'users'] as const,
  usersPage: (page: number) => ['admin', 'users', page] as const,
  /** The doctors list, which the schedule reads too. */
  doctors: doctorsKey,
  services: ['services'] as const,
};
