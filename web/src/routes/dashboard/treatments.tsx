import { TreatmentsPage } from '../../features/treatments/components/treatments-page';

/** /dashboard/treatments (admin): the clinic's treatments, their prices and slot times. */
export default function TreatmentsRoute() {
  return <TreatmentsPage />;
}
