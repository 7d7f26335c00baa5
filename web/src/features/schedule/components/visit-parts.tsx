import {
  type BookingStatus,
  formatDollars,
  type ScheduleEntry,
  STATUS_LABELS,
} from '@doctors-portal/contract';
import type { ReactNode } from 'react';
import { Email } from '../../../components/email';

const STATUS_BADGES: Record<BookingStatus, string> = {
  booked: 'badge-ghost',
  confirmed: 'badge-info',
  arrived: 'badge-warning',
  completed: 'badge-success',
  no_show: 'badge-error',
  cancelled: 'badge-neutral',
};

/** Where a visit stands, as a badge. */
export function StatusBadge({ status }: { status: BookingStatus }) {
  return (
    <span className={`badge badge-sm whitespace-nowrap ${STATUS_BADGES[status]}`}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/** Paid (with the transaction id), refunded (with the refund id), unpaid, or nothing due. */
export function PaymentState({ booking }: { booking: ScheduleEntry }) {
  if (booking.refund) {
    return (
      <span className="flex flex-col gap-0.5">
        <span className="font-semibold text-base-content">Refunded</span>
        <span className="break-all font-mono text-xs text-muted">{booking.refund.id}</span>
      </span>
    );
  }
  if (booking.paid) {
    return (
      <span className="flex flex-col gap-0.5">
        <span className="font-semibold text-success">Paid</span>
        <span className="text-xs text-muted">{formatDollars(booking.price)}</span>
      </span>
    );
  }
  if (booking.price === 0) return <span className="text-muted">No payment due</span>;
  return (
    <span className="flex flex-col gap-0.5">
      <span className="font-semibold text-error">Unpaid</span>
      <span className="text-xs text-muted">{formatDollars(booking.price)}</span>
    </span>
  );
}

/** The patient's name, address and, when they have any, how many visits they missed. */
export function PatientCell({ booking }: { booking: ScheduleEntry }) {
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      <span className="font-medium text-neutral">{booking.patientName}</span>
      <span className="text-xs text-muted">
        <Email address={booking.patientMail} />
      </span>
      {booking.noShows > 0 ? (
        <span className="badge badge-error badge-outline badge-sm mt-1 whitespace-nowrap">
          {booking.noShows === 1 ? '1 no-show' : `${booking.noShows} no-shows`}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The header row of a table of visits: a column header for each name (false leaves its column
 * out), then `children`, such as a header read out only.
 */
export function ColumnHeaders({
  names,
  children,
}: {
  names: ReadonlyArray<string | false>;
  children?: ReactNode;
}) {
  return (
    <tr>
      {names.map((name) =>
        name ? (
          <th key={name} scope="col">
            {name}
          </th>
        ) : null,
      )}
      {children}
    </tr>
  );
}
