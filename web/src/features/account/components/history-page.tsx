import {
  formatDollars,
  formatMediumDate,
  type HistoryEntry,
  historyStatusLabels,
  paths,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { useAuth } from '../../../lib/auth/auth-provider';
import { historyQuery } from '../api/get-history';

const STATUS_BADGE: Record<HistoryEntry['status'], string> = {
  completed: 'badge-success',
  no_show: 'badge-warning',
  cancelled_by_patient: 'badge-ghost',
  cancelled_by_clinic: 'badge-error badge-outline',
  past: 'badge-neutral badge-outline',
};

function payment(entry: HistoryEntry): string {
  if (entry.refunded) return 'Refunded';
  if (entry.paid) return 'Paid';
  return entry.price > 0 ? 'Not paid' : 'Free';
}

function Visit({ entry }: { entry: HistoryEntry }) {
  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4 shadow-soft sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="heading-3 text-neutral">{entry.treatment}</h2>
        <span className={`badge ${STATUS_BADGE[entry.status]}`}>
          {historyStatusLabels[entry.status]}
        </span>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-muted">Date</dt>
        <dd>{formatMediumDate(entry.date)}</dd>
        <dt className="text-muted">Time</dt>
        <dd>{entry.slot}</dd>
        <dt className="text-muted">Doctor</dt>
        <dd>{entry.doctor?.name ?? '—'}</dd>
        <dt className="text-muted">Payment</dt>
        <dd>
          {payment(entry)}
          {entry.price > 0 ? ` (${formatDollars(entry.price)})` : ''}
        </dd>
      </dl>
    </li>
  );
}

/** /dashboard/history: the patient's past and cancelled visits under the spec's heading. */
export function HistoryPage() {
  const { user } = useAuth();
  const history = useQuery({ ...historyQuery(user?.email ?? ''), enabled: Boolean(user) });
  return (
    <section className="flex flex-col gap-6">
      <div>
        <p className="eyebrow">Your visits</p>
        <h1 className="heading-2 mt-2 text-neutral">This is my History!</h1>
        <p className="lead mt-3 max-w-2xl">
          Your past and cancelled visits, the latest first. Upcoming ones are under{' '}
          <Link to={paths.dashboard} className="link link-primary">
            My Appointments
          </Link>
          .
        </p>
      </div>
      <QueryState
        query={history}
        loading={<TableLoading label="Loading your history" />}
        what="Your history"
        isEmpty={(entries) => entries.length === 0}
        empty={
          <EmptyState
            title="No visits yet"
            link={{ to: paths.appointment, label: 'Book an appointment' }}
          >
            Your visits will be listed here once their day has passed, and any you cancel.
          </EmptyState>
        }
      >
        {(entries) => (
          <ul className="flex flex-col gap-4" aria-label="Past and cancelled visits">
            {entries.map((entry) => (
              <Visit key={entry._id} entry={entry} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
