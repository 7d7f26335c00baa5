import { ComingSoon } from '../components/coming-soon';

export default function AppointmentRoute() {
  return <ComingSoon title="Appointment" />;
}
