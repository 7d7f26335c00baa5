import { type Booking, formatDollars, paths } from '@doctors-portal/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { UserAvatar } from '../../../components/user-avatar';

export interface AppointmentsTableProps {
  bookings: Booking[];
  /** The patient's picture, shown in the avatar column when they have one. */
  image?: string | null;
  /** The id of the booking being cancelled right now. */
  cancelling: string | null;
  onCancel: (booking: Booking) => void;
  labelledBy: string;
}

function Payment({
  booking,
  cancelling,
  onCancel,
}: {
  booking: Booking;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const describedBy = `booking-${booking._id}-treatment`;
  if (booking.paid) {
    return (
      <div className="flex flex-col gap-0.5">
        <span className="font-bold tracking-wide text-success">PAID</span>
        <span className="text-xs text-muted">
          Transaction id:{' '}
          <span className="break-all font-mono text-base-content">{booking.transactionId}</span>
        </span>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      {booking.price > 0 ? (
        <Link
          to={paths.payment(booking._id)}
          className="btn btn-primary btn-sm"
          aria-describedby={describedBy}
        >
          Plz Pay
        </Link>
      ) : (
        <span className="text-sm text-muted">No payment due</span>
      )}
      {/* Offered only where the server allows it: unpaid and not started yet. */}
      {booking.cancellable ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm text-error hover:bg-error/10"
          aria-describedby={describedBy}
          onClick={onCancel}
          disabled={cancelling}
        >
          {cancelling ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : null}
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/** Whether the element is wider than its box, i.e. scrolls sideways. */
function useScrollsSideways<T extends HTMLElement>(ref: RefObject<T | null>) {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

/**
 * Below the large breakpoint (where the dashboard's sidebar turns into a drawer) each row is laid
 * out as a card: the number, avatar and name on top, then one line per labelled cell. The
 * elements stay a table, so assistive technology still reads rows and columns.
 */
const card = {
  table: 'max-lg:block',
  head: 'max-lg:sr-only',
  body: 'max-lg:flex max-lg:flex-col max-lg:gap-4',
  row: 'max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-x-3 max-lg:gap-y-2.5 max-lg:rounded-box max-lg:border max-lg:border-base-300 max-lg:bg-base-100 max-lg:p-4 max-lg:shadow-soft',
  plain: 'max-lg:border-0 max-lg:p-0',
  line: 'max-lg:flex max-lg:basis-full max-lg:items-start max-lg:justify-between max-lg:gap-4 max-lg:border-0 max-lg:p-0 max-lg:text-right max-lg:before:text-sm max-lg:before:text-muted max-lg:before:content-[attr(data-label)]',
};

/**
 * The patient's bookings (spec: number, avatar, name, date, schedule, treatment, payment): a
 * table on large screens, cards on smaller ones. Should the table ever be wider than its box, it
 * scrolls inside a region that the keyboard can reach.
 */
export function AppointmentsTable({
  bookings,
  image,
  cancelling,
  onCancel,
  labelledBy,
}: AppointmentsTableProps) {
  const box = useRef<HTMLElement>(null);
  const scrolls = useScrollsSideways(box);
  return (
    <section
      ref={box}
      aria-labelledby={labelledBy}
      // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={scrolls ? 0 : undefined}
      className="overflow-x-auto lg:rounded-box lg:border lg:border-base-300 lg:bg-base-100 lg:shadow-soft"
    >
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
              <td data-label="Date" className={`whitespace-nowrap ${card.line}`}>
                {booking.date}
              </td>
              <td data-label="Schedule" className={`whitespace-nowrap ${card.line}`}>
                {booking.slot}
              </td>
              <td
                id={`booking-${booking._id}-treatment`}
                data-label="Treatment"
                className={card.line}
              >
                <div>
                  <span className="font-medium">{booking.treatment}</span>
                  <span className="block text-xs text-muted">{formatDollars(booking.price)}</span>
                </div>
              </td>
              <td
                className={`${card.plain} max-lg:mt-1 max-lg:basis-full max-lg:border-t max-lg:border-base-300 max-lg:pt-3`}
              >
                <Payment
                  booking={booking}
                  cancelling={cancelling === booking._id}
                  onCancel={() => onCancel(booking)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
