import { paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageLoader } from '../../../components/spinner';
import { ApiError } from '../../../lib/api-client';
import { visitLinkQuery } from '../api/visit-link';
import { MoveVisit } from './move-visit';
import { CancelVisit, ConfirmVisit } from './visit-answers';
import { CallTheClinic, VisitCard } from './visit-card';

/** The titles of the links that cannot be used, by the server's answer. */
const PROBLEMS: Record<number, string> = {
  404: 'This link does not work',
  409: 'This link cannot be used',
  410: 'This link has expired',
};

/**
 * /visit/:token (no sign-in): the page a Confirm, Reschedule or Cancel link of a mail opens. It
 * reads what the link does, then confirms on arrival (a POST from the page, so that a mail
 * scanner's GET changes nothing), asks once before cancelling, or offers the treatment's free
 * times to move to. A link that cannot be used says why, with a way on.
 */
export function VisitPage({ token }: { token: string }) {
  const link = useQuery(visitLinkQuery(token));
  if (link.isPending) return <PageLoader label="Opening your link…" />;
  if (link.isError) {
    const { error } = link;
    const status = error instanceof ApiError ? error.status : 0;
    return (
      <VisitCard title={PROBLEMS[status] ?? 'This link could not be opened'}>
        <p className="lead">{error.message}</p>
        <CallTheClinic />
        <div className="flex flex-wrap gap-3">
          <Link to={paths.dashboard} className="btn btn-primary">
            My Appointments
          </Link>
          {!PROBLEMS[status] && (
            <button type="button" className="btn btn-ghost" onClick={() => void link.refetch()}>
              Try again
            </button>
          )}
        </div>
      </VisitCard>
    );
  }
  const visit = link.data;
  switch (visit.action) {
    case 'confirm':
      return <ConfirmVisit token={token} visit={visit} />;
    case 'cancel':
      return <CancelVisit token={token} visit={visit} />;
    case 'reschedule':
      return <MoveVisit token={token} visit={visit} />;
  }
}
