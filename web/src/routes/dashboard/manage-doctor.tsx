import { ManageDoctorsPage } from '../../features/admin/components/manage-doctors-page';

/** /dashboard/manage-doctor (admin): the doctor list with delete (spec section 2). */
export default function ManageDoctorRoute() {
  return <ManageDoctorsPage />;
}
