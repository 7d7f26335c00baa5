import { type Booking, paths } from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { bookingKeys } from '../../api/booking-keys';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Spinner } from '../../components/spinner';
import { cancelBooking, myBookingsQuery } from '../../features/booking/api/booking';
import { AppointmentsTable } from '../../features/booking/components/appointments-table';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth/auth-provider';
import type { LoginState } from '../../lib/auth/guards';

/** A 401 or 403 means the server no longer honours this session (spec section 4). */
const sessionEnded = (error: unknown) =>
  error instanceof ApiError && (error.status === 401 || error.status === 403);

/** /dashboard (index): the patient's own appointments (spec section 2, My Appointments). */
export default function MyAppointmentsRoute() {
  const { user, endSession } = useAuth();
  const email = user?.email ?? '';
  const navigate = useNavigate();
  const location = useLocation();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const bookings = useQuery({
    ...myBookingsQuery(email),
    enabled: Boolean(user),
    retry: (failures, error) => !sessionEnded(error) && failures < 1,
  });

  const ended = sessionEnded(bookings.error);
  useEffect(() => {
    if (!ended) return;
    endSession();
    navigate(paths.login, { replace: true, state: { from: location } satisfies LoginState });
  }, [ended, endSession, navigate, location]);

  const cancel = async (booking: Booking) => {
    const what = `${booking.treatment} appointment on ${booking.date} at ${booking.slot}`;
    const confirmed = await confirm({
      message: `Cancel your ${what}?`,
      confirmLabel: 'Cancel appointment',
      cancelLabel: 'Keep it',
      danger: true,
    });
    if (!confirmed) return;
    setCancelling(booking._id);
    try {
      await cancelBooking(booking._id);
      toast.success(`Your ${what} is cancelled.`);
    } catch (error) {
      if (sessionEnded(error)) {
        endSession();
        navigate(paths.login, { replace: true, state: { from: location } satisfies LoginState });
        return;
      }
      toast.error(
        error instanceof ApiError ? error.message : 'The appointment could not be cancelled.',
      );
    } finally {
      setCancelling(null);
    }
    // The freed slot shows up again on the booking page.
    void queryClient.invalidateQueries({ queryKey: bookingKeys.available });
    await queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
    heading.current?.focus();
  };

  const count = bookings.data?.length;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="heading-2 mt-2 text-neutral outline-none"
          >
            {count === undefined ? 'My Appointments' : `My Appointments: ${count}`}
          </h1>
        </div>
        <Link to={paths.appointment} className="btn btn-primary btn-outline">
          Book another visit
        </Link>
      </div>

      {bookings.data ? (
        bookings.data.length > 0 ? (
          <AppointmentsTable
            bookings={bookings.data}
            image={user?.image}
            cancelling={cancelling}
            onCancel={(booking) => void cancel(booking)}
            labelledBy={headingId}
          />
        ) : (
          <div className="rounded-box border border-dashed border-base-300 bg-base-100 px-6 py-12 text-center">
            <p className="heading-3 text-neutral">You have no appointments yet</p>
            <p className="mt-2 text-muted">
              Pick a day and a treatment, and your booking will show up here.
            </p>
            <Link to={paths.appointment} className="btn btn-primary mt-6">
              Book an appointment
            </Link>
          </div>
        )
      ) : bookings.isError && !ended ? (
        <div className="flex flex-col items-start gap-3">
          <ErrorAlert>{`Your appointments could not be loaded. ${bookings.error.message}`}</ErrorAlert>
          <button
            type="button"
            className="btn btn-primary btn-outline btn-sm"
            onClick={() => void bookings.refetch()}
            disabled={bookings.isFetching}
          >
            Try again
          </button>
        </div>
      ) : (
        <div className="flex justify-center rounded-box border border-base-300 bg-base-100 py-16">
          <Spinner label="Loading your appointments…" />
        </div>
      )}
    </div>
  );
}
