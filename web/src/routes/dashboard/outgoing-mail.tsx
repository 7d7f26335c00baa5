import { OutgoingMailPage } from '../../features/outgoing-mail/components/outgoing-mail-page';

/** /dashboard/mail (admin): the mail the portal failed to send, to retry. */
export default function OutgoingMailRoute() {
  return <OutgoingMailPage />;
}
