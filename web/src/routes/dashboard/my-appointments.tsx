import { MyAppointmentsPage } from '../../features/booking/components/my-appointments-page';

/** /dashboard (index): the patient's own appointments (spec section 2, My Appointments). */
export default function MyAppointmentsRoute() {
  return <MyAppointmentsPage />;
}
