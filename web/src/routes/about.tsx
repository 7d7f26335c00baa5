import { ComingSoon } from '../components/coming-soon';

export default function AboutRoute() {
  return <ComingSoon title="About" />;
}
