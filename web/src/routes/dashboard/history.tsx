import { HistoryPage } from '../../features/account/components/history-page';

/** /dashboard/history: the spec's 'This is my History!', listing past and cancelled visits. */
export default function HistoryRoute() {
  return <HistoryPage />;
}
