import { useParams } from 'react-router';
import { PaymentPage } from '../../features/payment/components/payment-page';

/** /dashboard/payment/{id}: pay for one of the patient's bookings (spec section 2). */
export default function PaymentRoute() {
  const { bookingId = '' } = useParams();
  // A fresh page per booking: nothing of one booking's payment carries over to another's.
  return <PaymentPage key={bookingId} bookingId={bookingId} />;
}
