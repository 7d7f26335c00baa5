import { ComingSoon } from '../components/coming-soon';

export default function WhoWeAreRoute() {
  return <ComingSoon title="Who we are!" />;
}
