import {
  type Booking,
  formatMediumDate,
  type IsoDate,
  paths,
  todayIn,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useClinicTimeZone } from '../../../api/clinic';
import { isUpcoming, myBookingsQuery } from '../../../api/my-bookings';

/**
 * The visits a removal leaves booked: paid, booked or confirmed, and on today or a later day.
 * The server cancels only unpaid ones when the account goes, so these stay on the clinic's
 * records under 'Former patient'.
 */
function paidVisitsKept(bookings: readonly Booking[], today: IsoDate): Booking[] {
  return bookings.filter((booking) => booking.paid && isUpcoming(booking, today));
}

/**
 * Before the patient deletes their account: which paid visits will stay booked, and how to cancel
 * each (on My Appointments with a refund while the cancellation notice allows, by phone after).
 * Nothing is shown while the bookings are unknown or when there are none.
 */
export function PaidVisitsKept({ email }: { email: string }) {
  const bookings = useQuery(myBookingsQuery(email));
  const today = todayIn(useClinicTimeZone());
  const kept = paidVisitsKept(bookings.data ?? [], today);
  if (kept.length === 0) return null;
  return (
    <div
      role="note"
      className="flex flex-col gap-2 rounded-box border border-warning bg-warning/15 px-4 py-3 text-sm"
    >
      <p className="font-medium">
        {kept.length === 1 ? 'This paid visit stays booked:' : 'These paid visits stay booked:'}
      </p>
      <ul className="list-disc pl-5">
        {kept.map((booking) => (
          <li key={booking._id}>
            {`${booking.treatment}, ${formatMediumDate(booking.date)} at ${booking.slot}: `}
            {booking.cancellable ? (
              <>
                to be refunded, cancel it on{' '}
                <Link to={paths.dashboard} className="link">
                  My Appointments
                </Link>{' '}
                first.
              </>
            ) : (
              'call the clinic to cancel it.'
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
