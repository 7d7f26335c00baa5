import { ComingSoon } from '../../components/coming-soon';

export default function ReviewRoute() {
  return <ComingSoon title="My Review" />;
}
