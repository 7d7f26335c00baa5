import {
  formatDollars,
  type IsoDate,
  type ScheduleEntry,
  STATUS_LABELS,
} from '@doctors-portal/contract';
import { dayHeading } from './day-heading';
import { ColumnHeaders } from './visit-parts';

/**
 * The printed day sheet: each day of the view as a plain table (time, patient, phone, age,
 * treatment, the doctor when the day has any, payment, status, and a column to tick), shown
 * only on paper. The screen's own list, with its buttons, is left off the page.
 */
export function DaySheet({
  days,
  title,
}: {
  days: Array<{ date: IsoDate; bookings: ScheduleEntry[] }>;
  title: string;
}) {
  return (
    // On screen it is not shown at all; on paper it is the page (schedule-print.css). The screen's
    // list says the same to assistive technology.
    <div className="hidden text-black print:block" data-print-sheet aria-hidden="true">
      <h1 className="mb-2 text-xl font-bold">{title}</h1>
      {days.map(({ date, bookings }) => {
        const doctors = bookings.some((booking) => booking.doctor);
        return (
          <section key={date} className="mb-6 break-inside-avoid-page">
            <h2 className="mb-1 text-base font-semibold">
              {`${dayHeading(date)}: ${bookings.length} ${bookings.length === 1 ? 'booking' : 'bookings'}`}
            </h2>
            {bookings.length === 0 ? (
              <p className="text-sm">No bookings.</p>
            ) : (
              <table className="w-full border-collapse text-left text-xs [&_td]:border [&_td]:border-black/40 [&_td]:px-1.5 [&_td]:py-1 [&_th]:border [&_th]:border-black/40 [&_th]:px-1.5 [&_th]:py-1">
                <thead>
                  <ColumnHeaders
                    names={[
                      'Time',
                      'Patient',
                      'Phone',
                      'Age',
                      'Treatment',
                      doctors && 'Doctor',
                      'Payment',
                      'Status',
                      'Seen',
                    ]}
                  />
                </thead>
                <tbody>
                  {bookings.map((booking) => (
                    <tr key={booking._id} className="break-inside-avoid">
                      <th scope="row" className="whitespace-nowrap font-semibold">
                        {booking.slot}
                      </th>
                      <td>
                        {booking.patientName}
                        {booking.noShows > 0
                          ? ` (${booking.noShows} no-show${booking.noShows === 1 ? '' : 's'})`
                          : ''}
                      </td>
                      <td className="whitespace-nowrap">{booking.phone}</td>
                      <td>{booking.age}</td>
                      <td>{booking.treatment}</td>
                      {doctors ? <td>{booking.doctor?.name ?? '-'}</td> : null}
                      <td>
                        {booking.refund
                          ? 'Refunded'
                          : booking.paid
                            ? 'Paid'
                            : booking.price === 0
                              ? '-'
                              : `Unpaid ${formatDollars(booking.price)}`}
                      </td>
                      <td>{STATUS_LABELS[booking.status]}</td>
                      <td className="w-10" />
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
    </div>
  );
}
