import type { VisitLink } from '@doctors-portal/contract';
import { useEffect, useRef } from 'react';
import { useConfirm } from '../../../components/confirm-dialog';
import { ErrorAlert } from '../../../components/error-alert';
import { Spinner } from '../../../components/spinner';
import { useVisitLinkAction } from '../api/visit-link';
import { CallTheClinic, VisitCard, VisitSummary, visitInWords } from './visit-card';

interface AnswerProps {
  token: string;
  visit: VisitLink;
}

/**
 * A Confirm link: the visit is confirmed as the page opens, once (the ref keeps a remounted
 * effect from sending it twice), and the page says so.
 */
export function ConfirmVisit({ token, visit }: AnswerProps) {
  const confirming = useVisitLinkAction(token);
  const sent = useRef(false);
  const { mutate } = confirming;
  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    mutate({ action: 'confirm' });
  }, [mutate]);

  if (confirming.isError) {
    return (
      <VisitCard title="Your visit could not be confirmed">
        <ErrorAlert>{confirming.error.message}</ErrorAlert>
        <VisitSummary booking={visit.booking} />
        <CallTheClinic />
      </VisitCard>
    );
  }
  if (!confirming.isSuccess) {
    return (
      <VisitCard title="Confirming your visit…">
        <Spinner label="Confirming your visit…" />
        <VisitSummary booking={visit.booking} />
      </VisitCard>
    );
  }
  return (
    <VisitCard title="Your visit is confirmed">
      <p className="lead">Thank you: the clinic expects you.</p>
      <VisitSummary booking={confirming.data.booking} />
      <CallTheClinic />
    </VisitCard>
  );
}

/**
 * A Cancel link: the visit and the clinic's cancellation policy, 'Cancel my visit' asked once,
 * then the outcome (the refund, when the visit was paid), or the reason it stays (after the
 * cancellation notice, the clinic's phone).
 */
export function CancelVisit({ token, visit }: AnswerProps) {
  const confirm = useConfirm();
  const cancelling = useVisitLinkAction(token);

  const cancel = async () => {
    const confirmed = await confirm({
      message: `Cancel your ${visitInWords(visit.booking)}?`,
      confirmLabel: 'Yes, cancel it',
      cancelLabel: 'Keep it',
      danger: true,
    });
    if (confirmed) cancelling.mutate({ action: 'cancel' });
  };

  if (cancelling.isSuccess) {
    return (
      <VisitCard title="Your visit is cancelled">
        <p className="lead">
          {cancelling.data.refunded
            ? 'Your payment is refunded to your card; it shows there within a few days.'
            : 'Its time is free for another patient now.'}
        </p>
        <VisitSummary booking={cancelling.data.booking} />
        <CallTheClinic />
      </VisitCard>
    );
  }
  return (
    <VisitCard title="Cancel your visit">
      <VisitSummary booking={visit.booking} />
      {/* Past the notice, the policy says so and gives the number: no button to be refused. */}
      <p>{visit.policy}</p>
      {cancelling.isError && <ErrorAlert>{cancelling.error.message}</ErrorAlert>}
      {visit.booking.cancellable ? (
        <div className="flex flex-wrap gap-3">
          <button
            type="button"
            className="btn btn-error"
            disabled={cancelling.isPending || cancelling.isError}
            onClick={() => void cancel()}
          >
            {cancelling.isPending ? 'Cancelling…' : 'Cancel my visit'}
          </button>
        </div>
      ) : null}
      <CallTheClinic />
    </VisitCard>
  );
}
