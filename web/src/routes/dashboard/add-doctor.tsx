import { ComingSoon } from '../../components/coming-soon';

export default function AddDoctorRoute() {
  return <ComingSoon title="Add a New Doctor" />;
}
