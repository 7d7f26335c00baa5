import {
  type Booking,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  paths,
  todayIn,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { clinicQuery, useClinicTimeZone } from '../../../api/clinic';
import { myBookingsQuery } from '../../../api/my-bookings';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { Spinner } from '../../../components/spinner';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { useCancelBooking } from '../api/cancel-booking';
import { useRescheduleBooking } from '../api/reschedule-booking';
import { AppointmentsTable } from './appointments-table';
import { MyWaitlist } from './my-waitlist';
import { RescheduleDialog } from './reschedule-dialog';

/** What Cancel asks: a paid booking's payment goes back to the card (the cancellation policy). */
export function cancelQuestion(booking: Booking, what: string): string {
  return booking.paid
    ? `Cancel your ${what}? Your payment of ${formatDollars(booking.price)} will be refunded to your card.`
    : `Cancel your ${what}?`;
}

/**
 * The patient's own appointments (spec section 2, My Appointments): the count, the table, and
 * Cancel where the server allows it. A session the server no longer honours (401 or 403) ends
 * and the patient goes to the login page (lib/query-client.ts, the route guards).
 */
export function MyAppointmentsPage() {
  const { user } = useAuth();
  const confirm = useConfirm();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const bookings = useQuery({ ...myBookingsQuery(user?.email ?? ''), enabled: Boolean(user) });
  const clinic = useQuery(clinicQuery);
  const cancelling = useCancelBooking();
  const rescheduling = useRescheduleBooking();
  const [moving, setMoving] = useState<Booking | null>(null);
  // The clinic's today, as the server's rules have it, whatever the device's own date.
  const today = todayIn(useClinicTimeZone());

  const reschedule = async (move: { date: IsoDate; slot: string }): Promise<string | null> => {
    if (!moving) return null;
    try {
      const moved = await rescheduling.mutateAsync({ id: moving._id, ...move });
      setMoving(null);
      toast.success(`Moved to ${formatMediumDate(moved.date)}, ${moved.slot}.`);
      heading.current?.focus();
      return null;
    } catch (error) {
      if (error instanceof SessionEndedError) return null;
      return error instanceof ApiError ? error.message : 'The appointment could not be moved.';
    }
  };

  const cancel = async (booking: Booking) => {
    const what = `${booking.treatment} appointment on ${formatMediumDate(booking.date)} at ${booking.slot}`;
    const confirmed = await confirm({
      message: cancelQuestion(booking, what),
      confirmLabel: 'Cancel appointment',
      cancelLabel: 'Keep it',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await cancelling.mutateAsync(booking._id);
      toast.success(
        booking.paid
          ? `Your ${what} is cancelled, and your payment is refunded to your card.`
          : `Your ${what} is cancelled.`,
      );
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(
        error instanceof ApiError ? error.message : 'The appointment could not be cancelled.',
      );
    }
    heading.current?.focus();
  };

  const count = bookings.data?.length;

  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Dashboard"
        title={count === undefined ? 'My Appointments' : `My Appointments: ${count}`}
        headingId={headingId}
        headingRef={heading}
        // With no bookings yet, the empty state's own button is the way to book.
        action={
          count ? (
            <Link to={paths.appointment} className="btn btn-primary btn-outline">
              Book another visit
            </Link>
          ) : undefined
        }
      />

      <QueryState
        query={bookings}
        loading={
          <TableLoading>
            <Spinner label="Loading your appointments…" />
          </TableLoading>
        }
        what="Your appointments"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState
            title="You have no appointments yet"
            action={
              <Link to={paths.appointment} className="btn btn-primary">
                Book an appointment
              </Link>
            }
          >
            Pick a day and a treatment, and your booking will show up here.
          </EmptyState>
        }
      >
        {(list) => (
          <AppointmentsTable
            bookings={list}
            image={user?.image}
            cancelling={cancelling.isPending ? (cancelling.variables ?? null) : null}
            onCancel={(booking) => void cancel(booking)}
            onReschedule={setMoving}
            today={today}
            clinicPhone={clinic.data?.phone}
            labelledBy={headingId}
          />
        )}
      </QueryState>
      <MyWaitlist onLeft={() => heading.current?.focus()} />
      <RescheduleDialog
        booking={moving}
        today={today}
        onConfirm={reschedule}
        onClose={() => setMoving(null)}
        clinicPhone={clinic.data?.phone}
      />
    </div>
  );
}
