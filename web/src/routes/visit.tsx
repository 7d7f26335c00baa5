import { useParams } from 'react-router';
import { VisitPage } from '../features/visit/components/visit-page';

/** /visit/:token (no sign-in): where a Confirm, Reschedule or Cancel link of a mail leads. */
export default function VisitRoute() {
  const { token = '' } = useParams();
  return <VisitPage key={token} token={token} />;
}
