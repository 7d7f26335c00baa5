import { AccountPage } from '../../features/account/components/account-page';

/** /dashboard/account: the patient's own account. */
export default function AccountRoute() {
  return <AccountPage />;
}
