import { ComingSoon } from '../components/coming-soon';

export default function NotFoundRoute() {
  return <ComingSoon title="Page not found" />;
}
