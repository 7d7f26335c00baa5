import { ClinicPage } from '../../features/clinic/components/clinic-page';

/** /dashboard/clinic (admin): the opening days, the closures and the booking rules. */
export default function ClinicRoute() {
  return <ClinicPage />;
}
