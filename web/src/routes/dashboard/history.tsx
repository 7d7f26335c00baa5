import { ComingSoon } from '../../components/coming-soon';

export default function HistoryRoute() {
  return <ComingSoon title="This is my History!" />;
}
