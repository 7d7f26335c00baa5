import { useRef } from 'react';
import { ScreenOutlet } from '../../components/layout/screen-outlet';
import { VerifyEmailNotice } from '../../components/verify-email-notice';
import { EmailVerificationNotice } from '../../features/auth/components/email-verification-notice';
import { DashboardSidebar } from '../../features/dashboard/components/dashboard-sidebar';
import { WelcomeBanner } from '../../features/dashboard/components/welcome-banner';
import { useAuth } from '../../lib/auth/auth-provider';

/**
 * /dashboard: the sidebar beside the nested page (spec section 2). On small screens its links are
 * in the navigation bar's menu.
 */
export default function DashboardLayout() {
  const { user } = useAuth();
  const content = useRef<HTMLDivElement>(null);
  return (
    <div className="bg-base-200/60">
      <div className="container-page py-6 sm:py-8 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:items-start lg:gap-6 lg:py-10">
        <DashboardSidebar />
        <div ref={content} tabIndex={-1} className="flex min-w-0 flex-col gap-6 outline-none">
          <EmailVerificationNotice />
          <VerifyEmailNotice />
          {user ? (
            <WelcomeBanner
              key={user.email}
              email={user.email}
              onDismiss={() => content.current?.focus()}
            />
          ) : null}
          <ScreenOutlet />
        </div>
      </div>
    </div>
  );
}
