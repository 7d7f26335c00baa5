import {
  type Booking,
  CANCELLATION_CLOSED,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  paths,
} from '@doctors-portal/contract';
import { Link } from 'react-router';
import { isUpcoming } from '../../../api/my-bookings';
import { PhoneLink } from '../../../components/phone-link';
import { CardCell, card, TableRegion } from '../../../components/responsive-table';
import { UserAvatar } from '../../../components/user-avatar';

export interface AppointmentsTableProps {
  bookings: Booking[];
  /** The patient's picture, shown in the avatar column when they have one. */
  image?: string | null;
  /** The id of the booking being cancelled right now. */
  cancelling: string | null;
  onCancel: (booking: Booking) => void;
  /** Offered for each upcoming booking still booked or confirmed: opens the move dialog. */
  onReschedule?: ((booking: Booking) => void) | undefined;
  /** The clinic's today: bookings before it are not moved. */
  today: IsoDate;
  /** The clinic's phone: whom to call to cancel a visit past the cancellation notice. */
  clinicPhone?: string | undefined;
  labelledBy: string;
}

function Payment({
  booking,
  cancelling,
  onCancel,
  onReschedule,
  closedOnline,
}: {
  booking: Booking;
  cancelling: boolean;
  onCancel: () => void;
  onReschedule: (() => void) | null;
  /** For an upcoming visit past the notice: why there is no Cancel, and whom to call. */
  closedOnline: { phone: string | undefined } | null;
}) {
  // Each action's name says which visit it acts on, after its visible text.
  const visit = `${booking.treatment} on ${formatMediumDate(booking.date)}`;
  // Offered only where the server allows it: booked or confirmed, paid or not, and before the
  // clinic's cancellation notice.
  const cancelButton = booking.cancellable ? (
    <button
      type="button"
      className="btn btn-ghost btn-sm self-start text-error hover:bg-error/10"
      aria-label={`Cancel ${visit}`}
      onClick={onCancel}
      disabled={cancelling}
    >
      {cancelling ? (
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
      ) : null}
      Cancel
    </button>
  ) : closedOnline ? (
    <p className="max-w-56 text-xs text-muted">
      {CANCELLATION_CLOSED}
      {closedOnline.phone ? (
        <>
          {' '}
          To cancel it, call <PhoneLink phone={closedOnline.phone} className="link" />.
        </>
      ) : null}
    </p>
  ) : null;
  if (booking.status === 'cancelled') {
    // Listed when the clinic cancelled it (with its reason), or when its patient cancelled a
    // paid one (no reason): the refund of a paid one.
    return (
      <div className="flex flex-col gap-0.5">
        {booking.refund ? (
          <>
            <span className="font-bold tracking-wide text-base-content">REFUNDED</span>
            <span className="text-xs text-muted">
              Refund id:{' '}
              <span className="block break-all font-mono text-base-content">
                {booking.refund.id}
              </span>
            </span>
          </>
        ) : null}
        <span className="text-sm font-semibold text-error">
          {booking.cancelReason ? 'Cancelled by the clinic' : 'Cancelled by you'}
        </span>
        {booking.cancelReason ? (
          <span className="text-xs text-muted">{booking.cancelReason}</span>
        ) : null}
      </div>
    );
  }
  if (booking.paid) {
    return (
      <div className="flex flex-col gap-0.5">
        <span className="font-bold tracking-wide text-success">PAID</span>
        <span className="text-xs text-muted">
          Transaction id:{' '}
          <span className="block break-all font-mono text-base-content">
            {booking.transactionId}
          </span>
        </span>
        <RescheduleButton booking={booking} onReschedule={onReschedule} />
        {cancelButton}
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {booking.price > 0 ? (
        <Link
          to={paths.payment(booking._id)}
          className="btn btn-primary btn-sm"
          aria-label={`Plz Pay, ${visit}`}
        >
          Plz Pay
        </Link>
      ) : (
        <span className="text-sm text-muted">No payment due</span>
      )}
      <RescheduleButton booking={booking} onReschedule={onReschedule} />
      {cancelButton}
    </div>
  );
}

/** 'Reschedule', named with the booking's treatment and date, when the booking may move. */
function RescheduleButton({
  booking,
  onReschedule,
}: {
  booking: Booking;
  onReschedule: (() => void) | null;
}) {
  if (!onReschedule) return null;
  return (
    <button
      type="button"
      className="btn btn-outline btn-sm self-start"
      aria-label={`Reschedule ${booking.treatment} on ${formatMediumDate(booking.date)}`}
      onClick={onReschedule}
    >
      Reschedule
    </button>
  );
}

/**
 * The patient's bookings (spec: number, avatar, name, date, schedule, treatment, payment; and the
 * doctor the visit is with, '—' for a treatment no doctor performs): a
 * table on large screens, cards on smaller ones (components/responsive-table.tsx).
 */
export function AppointmentsTable({
  bookings,
  image,
  cancelling,
  onCancel,
  onReschedule,
  today,
  clinicPhone,
  labelledBy,
}: AppointmentsTableProps) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className={`table lg:[&_td]:px-3 lg:[&_th]:px-3 ${card.table}`}>
        <thead className={`bg-base-200/70 text-sm text-neutral ${card.head}`}>
          <tr>
            <th scope="col">#</th>
            <th scope="col">
              <span className="sr-only">Avatar</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Date</th>
            <th scope="col">Schedule</th>
            <th scope="col">Treatment</th>
            <th scope="col">Doctor</th>
            <th scope="col">Payment</th>
          </tr>
        </thead>
        <tbody className={card.body}>
          {bookings.map((booking, index) => (
            <tr
              key={booking._id}
              className={`hover:bg-base-200/40 max-lg:hover:bg-base-100 ${card.row}`}
            >
              <th
                scope="row"
                className={`font-semibold text-muted max-lg:text-sm max-lg:before:content-['#'] ${card.plain}`}
              >
                {index + 1}
              </th>
              <td className={`w-12 ${card.plain}`}>
                <UserAvatar name={booking.patientName} image={image} />
              </td>
              <td className={`font-medium max-lg:flex-1 ${card.plain}`}>{booking.patientName}</td>
              <CardCell label="Date" wrap className="whitespace-nowrap">
                {formatMediumDate(booking.date)}
              </CardCell>
              <CardCell label="Schedule" wrap className="whitespace-nowrap">
                {booking.slot}
              </CardCell>
              <CardCell label="Treatment" wrap>
                <div>
                  <span className="font-medium">{booking.treatment}</span>
                  <span className="block text-xs text-muted">{formatDollars(booking.price)}</span>
                </div>
              </CardCell>
              <CardCell label="Doctor" wrap>
                {booking.doctor ? (
                  <span className="break-words">{booking.doctor.name}</span>
                ) : (
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="sr-only">No doctor</span>
                  </>
                )}
              </CardCell>
              <td className={card.actions}>
                <Payment
                  booking={booking}
                  cancelling={cancelling === booking._id}
                  onCancel={() => onCancel(booking)}
                  onReschedule={
                    onReschedule && isUpcoming(booking, today) ? () => onReschedule(booking) : null
                  }
                  closedOnline={
                    !booking.cancellable && isUpcoming(booking, today)
                      ? { phone: clinicPhone }
                      : null
                  }
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
