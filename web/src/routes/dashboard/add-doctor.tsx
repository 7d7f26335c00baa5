import { AddDoctorPage } from '../../features/admin/components/add-doctor-page';

/** /dashboard/add-doctor (admin): the add-doctor form (spec section 2). */
export default function AddDoctorRoute() {
  return <AddDoctorPage />;
}
