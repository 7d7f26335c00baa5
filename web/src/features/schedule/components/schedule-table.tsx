import type { IsoDate, ScheduleEntry, VisitStatus } from '@doctors-portal/contract';
import { CardCell, card, TableRegion } from '../../../components/responsive-table';
import { actionsFor, VISIT_ACTION_LABELS } from '../schedule';
import { ColumnHeaders, PatientCell, PaymentState, StatusBadge } from './visit-parts';

export interface ScheduleTableProps {
  bookings: ScheduleEntry[];
  /** The clinic's today: visit statuses are set on or after a visit's day. */
  today: IsoDate;
  labelledBy: string;
  /** The booking whose status or cancellation is being sent now. */
  busy: string | null;
  onStatus: (booking: ScheduleEntry, status: VisitStatus) => void;
  onCancel: (booking: ScheduleEntry, opener: HTMLButtonElement) => void;
  /** A Doctor column, where the rows are not grouped under their doctor already. */
  showDoctor?: boolean;
}

/** The element id of a booking's row: its actions are found there again after a change. */
export const rowId = (booking: Pick<ScheduleEntry, '_id'>) => `schedule-row-${booking._id}`;

/** The buttons a booking's row offers: the visit statuses it may move to, and Cancel. */
export function VisitActions({
  booking,
  today,
  busy,
  onStatus,
  onCancel,
}: Omit<ScheduleTableProps, 'bookings' | 'labelledBy' | 'busy' | 'showDoctor'> & {
  booking: ScheduleEntry;
  busy: boolean;
}) {
  const { visit, cancel } = actionsFor(booking, today);
  if (visit.length === 0 && !cancel) return null;
  // Each action is named by its text, then the visit it acts on.
  const whose = `${booking.patientName}, ${booking.slot}`;
  return (
    // A button's label on one line is its narrowest: the table makes the column that wide.
    <div className="flex flex-wrap items-center gap-2 [&>.btn]:whitespace-nowrap">
      {visit.map((status) => (
        <button
          key={status}
          type="button"
          className={`btn btn-sm ${status === 'no_show' ? 'btn-outline' : 'btn-primary btn-outline'}`}
          aria-label={`${VISIT_ACTION_LABELS[status]}, ${whose}`}
          disabled={busy}
          onClick={() => onStatus(booking, status)}
        >
          {VISIT_ACTION_LABELS[status]}
        </button>
      ))}
      {cancel ? (
        <button
          type="button"
          className="btn btn-ghost btn-sm text-error hover:bg-error/10"
          aria-label={`Cancel booking, ${whose}`}
          aria-haspopup="dialog"
          disabled={busy}
          onClick={(event) => onCancel(booking, event.currentTarget)}
        >
          Cancel booking
        </button>
      ) : null}
      {busy ? (
        <span className="loading loading-spinner loading-xs" role="status" aria-label="Saving…" />
      ) : null}
    </div>
  );
}

/** '10:00 AM - 10:30 AM', broken if need be only between its two times. */
function SlotTimes({ slot }: { slot: string }) {
  const [start, end] = slot.split(' - ');
  if (end === undefined) return <span className="whitespace-nowrap">{slot}</span>;
  return (
    <>
      <span className="whitespace-nowrap">{start} -</span>{' '}
      <span className="whitespace-nowrap">{end}</span>
    </>
  );
}

/**
 * One day's bookings on the schedule: a table on large screens, a card per booking on smaller
 * ones (components/responsive-table.tsx), so that nothing scrolls sideways at 375 px.
 */
export function ScheduleTable({
  bookings,
  today,
  labelledBy,
  busy,
  onStatus,
  onCancel,
  showDoctor = false,
}: ScheduleTableProps) {
  return (
    <TableRegion labelledBy={labelledBy}>
      {/* Narrow cells: beside the dashboard's menu the page leaves the table about 820 px on
          any screen from a laptop's 1280 up, and the week's Doctor column must fit in them. */}
      <table className={`table lg:[&_td]:px-1.5 lg:[&_th]:px-1.5 ${card.table}`}>
        <thead className={`bg-base-200/70 text-sm text-neutral ${card.head}`}>
          <ColumnHeaders
            names={[
              'Time',
              'Patient',
              'Treatment',
              showDoctor && 'Doctor',
              'Phone',
              'Age',
              'Payment',
              'Status',
            ]}
          >
            {/* As narrow as its widest button: the width goes to the patient's name and email. */}
            <th scope="col" className="lg:w-px">
              <span className="sr-only">Actions</span>
            </th>
          </ColumnHeaders>
        </thead>
        <tbody className={card.body}>
          {bookings.map((booking) => (
            <tr
              key={booking._id}
              id={rowId(booking)}
              data-status={booking.status}
              className={`align-top hover:bg-base-200/40 max-lg:hover:bg-base-100 ${
                booking.status === 'cancelled' ? 'text-muted' : ''
              } ${card.row}`}
            >
              <th scope="row" className={`font-semibold text-neutral max-lg:flex-1 ${card.plain}`}>
                <SlotTimes slot={booking.slot} />
              </th>
              <CardCell label="Patient" wrap className="lg:w-1/5">
                <PatientCell booking={booking} />
              </CardCell>
              <CardCell label="Treatment" wrap>
                {booking.treatment}
              </CardCell>
              {showDoctor ? (
                <CardCell label="Doctor" wrap>
                  {booking.doctor ? (
                    booking.doctor.name
                  ) : (
                    <>
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">No doctor</span>
                    </>
                  )}
                </CardCell>
              ) : null}
              <CardCell label="Phone" className="whitespace-nowrap">
                {booking.phone}
              </CardCell>
              <CardCell label="Age">{booking.age}</CardCell>
              <CardCell label="Payment" wrap>
                <PaymentState booking={booking} />
              </CardCell>
              <CardCell label="Status" wrap>
                <span className="flex flex-col items-end gap-1 lg:items-start">
                  <StatusBadge status={booking.status} />
                  {booking.status === 'cancelled' && booking.cancelReason ? (
                    <span className="max-w-56 text-xs text-muted">
                      {booking.cancelledBy === 'patient' ? 'By the patient' : booking.cancelReason}
                    </span>
                  ) : null}
                </span>
              </CardCell>
              <td className={card.actions}>
                <VisitActions
                  booking={booking}
                  today={today}
                  busy={busy === booking._id}
                  onStatus={onStatus}
                  onCancel={onCancel}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
