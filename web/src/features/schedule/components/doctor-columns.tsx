import type { ScheduleEntry } from '@doctors-portal/contract';
import { TableRegion } from '../../../components/responsive-table';
import { rowId, type ScheduleTableProps, SlotTimes, VisitActions } from './schedule-table';
import { PatientCell, PaymentState, StatusBadge } from './visit-parts';

/**
 * A doctor's bookings of the day as a column beside the other doctors' (wide screens): a row
 * per booking, its time and then, one under the other, everything its row in the full table
 * shows, with the same actions.
 */
export function DoctorColumn({
  bookings,
  labelledBy,
  ...actions
}: Omit<ScheduleTableProps, 'showDoctor'>) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="table [&_td]:align-top [&_th]:align-top">
        <thead className="sr-only">
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Visit</th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((booking) => (
            <tr
              key={booking._id}
              id={rowId(booking)}
              data-status={booking.status}
              className={booking.status === 'cancelled' ? 'text-muted' : ''}
            >
              <th scope="row" className="w-20 pr-0 text-sm font-semibold text-neutral">
                <SlotTimes slot={booking.slot} />
              </th>
              <td>
                <Visit booking={booking} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Visit({
  booking,
  ...actions
}: Pick<ScheduleTableProps, 'today' | 'busy' | 'onStatus' | 'onCancel'> & {
  booking: ScheduleEntry;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <PatientCell booking={booking} />
      <span>{booking.treatment}</span>
      <span className="text-sm text-muted">
        <span className="whitespace-nowrap">{booking.phone}</span>
        {' · '}
        <span className="whitespace-nowrap">{`Age ${booking.age}`}</span>
      </span>
      <PaymentState booking={booking} />
      <span className="flex flex-col items-start gap-1">
        <StatusBadge status={booking.status} />
        {booking.status === 'cancelled' && booking.cancelReason ? (
          <span className="text-xs text-muted">
            {booking.cancelledBy === 'patient' ? 'By the patient' : booking.cancelReason}
          </span>
        ) : null}
      </span>
      <VisitActions
        booking={booking}
        today={actions.today}
        busy={actions.busy === booking._id}
        onStatus={actions.onStatus}
        onCancel={actions.onCancel}
      />
    </div>
  );
}
