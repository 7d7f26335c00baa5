import { ComingSoon } from '../../components/coming-soon';

export default function ManageDoctorRoute() {
  return <ComingSoon title="Manage Doctors" />;
}
