import { formatMediumDate, todayIn, type VisitLink } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { clinicQuery } from '../../../api/clinic';
import { ErrorAlert } from '../../../components/error-alert';
import { MoveFields, useMove } from '../../../components/move-fields';
import { useVisitLinkAction } from '../api/visit-link';
import { CallTheClinic, VisitCard, VisitSummary, visitInWords } from './visit-card';

/**
 * A Reschedule link: the booking page of the visit's treatment with the visit in hand. A banner
 * says which visit moves; a day (today onwards) and one of its free times of that treatment
 * (its own time not offered on its own day) are sent through the link, and the page says where
 * the visit is now, or why it could not move (the time just taken, the minimum notice, …).
 */
export function MoveVisit({ token, visit }: { token: string; visit: VisitLink }) {
  const { booking } = visit;
  const { data: clinic } = useQuery(clinicQuery);
  const today = todayIn(clinic?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  // The link works until the visit starts: its day is today or later.
  const moving = useVisitLinkAction(token);
  const move = useMove(booking.date, () => moving.reset());
  const { date, slot } = move;

  if (moving.isSuccess) {
    const moved = moving.data.booking;
    return (
      <VisitCard title="Your visit is moved">
        <p className="lead">{`Moved to ${formatMediumDate(moved.date)}, ${moved.slot}.`}</p>
        <VisitSummary booking={moved} />
        <p className="text-sm text-muted">An updated confirmation is on its way to your mailbox.</p>
        <CallTheClinic />
      </VisitCard>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (date && slot && !moving.isPending) moving.mutate({ action: 'reschedule', date, slot });
  };

  return (
    <VisitCard title={`Reschedule ${booking.treatment}`}>
      <div role="note" className="alert alert-info alert-soft">
        {`Moving your ${visitInWords(booking)}`}
      </div>
      <form className="flex flex-col gap-4" onSubmit={submit}>
        <MoveFields booking={booking} today={today} {...move.fields} />
        {moving.isError && <ErrorAlert>{moving.error.message}</ErrorAlert>}
        <div>
          <button type="submit" className="btn btn-primary" disabled={!slot || moving.isPending}>
            {moving.isPending ? 'Moving…' : 'Move my visit'}
          </button>
        </div>
      </form>
      <CallTheClinic />
    </VisitCard>
  );
}
