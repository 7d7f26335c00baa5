import { ComingSoon } from '../../components/coming-soon';

export default function PaymentRoute() {
  return <ComingSoon title="Payment" />;
}
