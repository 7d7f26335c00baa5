import { ComingSoon } from '../../components/coming-soon';

export default function MyAppointmentsRoute() {
  return <ComingSoon title="My Appointments" />;
}
