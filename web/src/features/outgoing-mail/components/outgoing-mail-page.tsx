import type { MailFailure } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useClinicTimeZone } from '../../../api/clinic';
import { AdminRow, AdminTable, type Column } from '../../../components/admin-table';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { CardCell, card, EmptyState, TableLoading } from '../../../components/responsive-table';
import { ButtonSpinner } from '../../../components/spinner';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { mailFailuresQuery, useRetryMail } from '../api/mail-failures';

/** The kinds of mail the portal sends, as the front desk calls them. */
const KINDS: Record<string, string> = {
  'booking-confirmation': 'Booking confirmation',
  'booking-reminder': 'Reminder',
  'booking-cancellation': 'Cancellation',
  'payment-receipt': 'Payment receipt',
  'contact-message': 'Contact Us message',
  'waitlist-slot-free': 'Waitlist: a slot is free',
  'refund-failed': 'Refund failed (to the clinic)',
};

const kindOf = (kind: string) => KINDS[kind] ?? kind;

const COLUMNS: Column[] = [
  'Mail',
  'Recipient',
  'Attempts',
  'Last error',
  'Next attempt',
  { hidden: 'Actions' },
];

const loadingFailures = <TableLoading label="Loading failed mail…" />;

function when(iso: string, timeZone: string) {
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/**
 * /dashboard/mail (admin), 'Outgoing mail': the messages the portal failed to send, newest
 * first, with how often each was tried, the relay's last error, and when it is tried next or
 * that the sender gave up; 'Retry' makes one due again now.
 */
export function OutgoingMailPage() {
  const heading = useScreenHeading();
  const timeZone = useClinicTimeZone();
  const failures = useQuery(mailFailuresQuery);
  const retrying = useRetryMail();
  const [busy, setBusy] = useState<string | null>(null);
  // After a retry, once the list is read again: the message's Retry takes the focus back (it was
  // disabled meanwhile, which drops the focus), or the heading when the message left the list.
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  useEffect(() => {
    if (!focusAfter || busy || failures.isFetching) return;
    const button = document.querySelector<HTMLButtonElement>(
      `[data-retry-mail="${CSS.escape(focusAfter)}"]`,
    );
    (button ?? heading.ref.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter, busy, failures.isFetching, heading.ref]);

  const retry = async (failure: MailFailure) => {
    setBusy(failure.id);
    try {
      await retrying.mutateAsync(failure.id);
      toast.success(`${kindOf(failure.kind)} to ${failure.to} is sent again now.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'The mail could not be retried. Please try again.'));
    } finally {
      setBusy(null);
      setFocusAfter(failure.id);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <PageHeading eyebrow="Administration" title="Outgoing mail" heading={heading} />
      <p className="text-muted">
        Mail the portal could not hand to the mail relay. Each is tried again on its own, less often
        each time, until it is given up; Retry sends it again now.
      </p>
      <QueryState
        query={failures}
        loading={loadingFailures}
        what="The failed mail"
        isEmpty={(data) => data.length === 0}
        empty={
          <EmptyState title="No failed mail">
            Every message the portal wrote has reached the mail relay.
          </EmptyState>
        }
      >
        {(data) => (
          <AdminTable labelledBy={heading.id} columns={COLUMNS}>
            {data.map((failure) => (
              <AdminRow key={failure.id} id={`mail-${failure.id}`}>
                <th scope="row" className={`font-semibold text-neutral ${card.plain}`}>
                  {kindOf(failure.kind)}
                  <span className="block text-xs font-normal text-muted">
                    {`Written ${when(failure.createdAt, timeZone)}`}
                  </span>
                </th>
                <CardCell label="Recipient" className="[overflow-wrap:anywhere]">
                  {failure.to}
                </CardCell>
                <CardCell label="Attempts">{failure.attempts}</CardCell>
                <CardCell label="Last error" wrap className="[overflow-wrap:anywhere]">
                  {failure.lastError ?? '—'}
                </CardCell>
                <CardCell label="Next attempt">
                  {failure.nextAttemptAt === null ? (
                    <span className="badge badge-error badge-soft">Given up</span>
                  ) : (
                    <time dateTime={failure.nextAttemptAt}>
                      {when(failure.nextAttemptAt, timeZone)}
                    </time>
                  )}
                </CardCell>
                <td className={`text-right ${card.actions}`}>
                  <button
                    type="button"
                    className="btn btn-outline btn-primary btn-sm"
                    aria-label={`Retry the ${kindOf(failure.kind).toLowerCase()} to ${failure.to}`}
                    data-retry-mail={failure.id}
                    disabled={busy !== null}
                    onClick={() => void retry(failure)}
                  >
                    {busy === failure.id ? <ButtonSpinner /> : null}
                    Retry
                  </button>
                </td>
              </AdminRow>
            ))}
          </AdminTable>
        )}
      </QueryState>
    </div>
  );
}
