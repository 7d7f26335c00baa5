import { type Booking, formatDollars, formatMediumDate, paths } from '@doctors-portal/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { reasonOf } from '../../../lib/api-client';
import { downloadCalendarEvent } from '../api/download-calendar-event';

export interface BookingConfirmationProps {
  booking: Booking;
  /** The clinic's cancellation policy in one sentence, once the page knows it. */
  policy?: string | null | undefined;
  onDismiss: () => void;
}

/**
 * What comes after a booking (the spec's toast still says it): the visit as booked, its doctor,
 * 'Pay now', 'Add to calendar' and the cancellation policy. It takes focus when it appears, so a
 * keyboard or screen reader user lands on the next step rather than back on the card.
 */
export function BookingConfirmation({ booking, policy, onDismiss }: BookingConfirmationProps) {
  const panel = useRef<HTMLElement>(null);
  const titleId = useId();
  const [calendar, setCalendar] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });

  useEffect(() => {
    panel.current?.focus();
  }, []);

  const addToCalendar = async () => {
    setCalendar({ busy: true, error: null });
    try {
      await downloadCalendarEvent(booking._id);
      setCalendar({ busy: false, error: null });
    } catch (error) {
      setCalendar({
        busy: false,
        error: reasonOf(error, 'The calendar event could not be downloaded.'),
      });
    }
  };

  const due = booking.price > 0 && !booking.paid;
  const rows: Array<[string, string]> = [
    ['Treatment', booking.treatment],
    ['Date', formatMediumDate(booking.date)],
    ['Time', booking.slot],
    // A treatment no doctor performs has none: the row is left out rather than guessed.
    ...(booking.doctor ? [['Doctor', booking.doctor.name] as [string, string]] : []),
    ['Price', formatDollars(booking.price)],
  ];

  return (
    <section
      ref={panel}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="container-page scroll-mt-24 pt-10 outline-none focus-visible:outline-none"
    >
      <div className="mx-auto max-w-2xl rounded-box border border-success/40 bg-base-100 p-6 shadow-lift sm:p-8">
        <p className="eyebrow text-success">Booked</p>
        <h2 id={titleId} className="heading-3 mt-2 text-2xl text-neutral">
          Your visit is booked
        </h2>
        <dl className="mt-5 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-[0.95rem]">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted">{term}</dt>
              <dd className="font-semibold text-neutral">{value}</dd>
            </div>
          ))}
        </dl>
        {policy ? <p className="mt-5 text-sm text-muted">{policy}</p> : null}
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          {due ? (
            <Link to={paths.payment(booking._id)} className="btn btn-primary sm:px-8">
              Pay now
            </Link>
          ) : null}
          <button
            type="button"
            className="btn btn-outline btn-primary"
            onClick={addToCalendar}
            disabled={calendar.busy}
          >
            {calendar.busy ? (
              <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            ) : null}
            Add to calendar
          </button>
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2 text-sm">
          <Link to={paths.dashboard} className="link link-primary font-medium">
            My Appointments
          </Link>
          <button
            type="button"
            className="link link-primary min-h-6 font-medium"
            onClick={onDismiss}
          >
            Book another
          </button>
        </div>
        {calendar.error ? (
          <p role="alert" className="mt-3 text-sm text-error">
            {calendar.error}
          </p>
        ) : null}
      </div>
    </section>
  );
}
