import { MessagesPage } from '../../features/admin/components/messages-page';

/** /dashboard/messages (admin): what visitors sent through the Contact Us form. */
export default function MessagesRoute() {
  return <MessagesPage />;
}
