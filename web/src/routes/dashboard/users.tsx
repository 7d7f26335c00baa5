import { UsersPage } from '../../features/admin/components/users-page';

/** /dashboard/users (admin): every user, with Make Admin and Remove user (spec section 2). */
export default function UsersRoute() {
  return <UsersPage />;
}
