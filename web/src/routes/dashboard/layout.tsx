import { Outlet } from 'react-router';
import { VerifyEmailNotice } from '../../features/auth/components/verify-email-notice';

export default function DashboardLayout() {
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <VerifyEmailNotice />
      <Outlet />
    </div>
  );
}
