import { ComingSoon } from '../components/coming-soon';

export default function HomeRoute() {
  return <ComingSoon title="Doctors Portal" />;
}
