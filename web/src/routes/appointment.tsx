import { BookingSection } from '../features/booking/components/booking-section';

/** /appointment: the booking page (spec section 2). */
export default function AppointmentRoute() {
  return <BookingSection level={1} />;
}
