import { paths } from '@doctors-portal/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Link, matchPath, useLocation } from 'react-router';
import { DASHBOARD_MENU_SLOT_ID } from '../../../components/layout/dashboard-menu-slot';
import { UserAvatar } from '../../../components/user-avatar';
import { useAdminStatus, useAuth } from '../../../lib/auth/auth-provider';
import {
  AccountIcon,
  AuditIcon,
  CalendarIcon,
  ClipboardIcon,
  ClosedDayIcon,
  DoctorPlusIcon,
  HistoryIcon,
  InboxIcon,
  OutboxIcon,
  ScheduleIcon,
  StarIcon,
  TreatmentIcon,
  UsersIcon,
} from './icons';

interface Item {
  label: string;
  to: string;
  icon: ReactNode;
  /** Current on `to` itself only, not on the pages below it. */
  end?: boolean;
  /** Pages not in the menu that belong to this item's: it is marked as their section. */
  within?: string;
}

/** The spec's sidebar links, in its order, then the patient's own account. */
const PATIENT_ITEMS: Item[] = [
  {
    label: 'Dashboard',
    to: paths.dashboard,
    icon: <CalendarIcon />,
    end: true,
    // Paying for a visit is a step of My Appointments.
    within: paths.payment(''),
  },
  { label: 'My Review', to: paths.review, icon: <StarIcon /> },
  { label: 'My History', to: paths.history, icon: <HistoryIcon /> },
  { label: 'Account', to: paths.account, icon: <AccountIcon /> },
];

const ADMIN_ITEMS: Item[] = [
  { label: 'Schedule', to: paths.schedule, icon: <ScheduleIcon /> },
  { label: 'Treatments', to: paths.treatments, icon: <TreatmentIcon /> },
  { label: 'Clinic', to: paths.clinic, icon: <ClosedDayIcon /> },
  { label: 'All Users (ADMIN)', to: paths.users, icon: <UsersIcon /> },
  { label: 'Add Your Doctor', to: paths.addDoctor, icon: <DoctorPlusIcon /> },
  { label: 'Manage Doctor', to: paths.manageDoctor, icon: <ClipboardIcon /> },
  { label: 'Messages', to: paths.messages, icon: <InboxIcon /> },
  { label: 'Outgoing mail', to: paths.outgoingMail, icon: <OutboxIcon /> },
  { label: 'Audit log', to: paths.audit, icon: <AuditIcon /> },
];

const linkClass = (current: boolean) =>
  `flex items-center gap-3 rounded-field px-3.5 py-2.5 font-medium transition-colors ${
    current
      ? 'bg-primary text-primary-content shadow-soft'
      : 'text-base-content hover:bg-mint hover:text-primary'
  }`;

/** The item's page (`aria-current="page"`), the section of the page shown (`"true"`), or neither. */
function currentness(item: Item, pathname: string): 'page' | 'true' | undefined {
  if (matchPath({ path: item.to, end: item.end ?? false }, pathname)) return 'page';
  return item.within !== undefined && pathname.startsWith(item.within) ? 'true' : undefined;
}

function Links({ items }: { items: Item[] }) {
  const { pathname } = useLocation();
  return (
    <ul className="flex flex-col gap-1">
      {items.map((item) => {
        const current = currentness(item, pathname);
        return (
          <li key={item.to}>
            <Link to={item.to} aria-current={current} className={linkClass(current !== undefined)}>
              {item.icon}
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The dashboard's sidebar (spec section 2): a column beside the content on large screens; on
 * small ones its links join the site's in the navigation bar's one mobile menu, rendered into
 * the slot the bar keeps for them on dashboard pages (components/layout/dashboard-menu-slot).
 */
export function DashboardSidebar() {
  const { user } = useAuth();
  const admin = useAdminStatus();
  const [menuSlot, setMenuSlot] = useState<HTMLElement | null>(null);
  // The bar and this page mount in one commit: the slot is there once this effect runs.
  useEffect(() => setMenuSlot(document.getElementById(DASHBOARD_MENU_SLOT_ID)), []);

  const adminLinks =
    admin.data === true ? (
      <div className="border-t border-base-300 pt-5">
        <p className="px-3.5 pb-2 text-xs font-semibold uppercase tracking-[0.14em] text-muted">
          Administration
        </p>
        <Links items={ADMIN_ITEMS} />
      </div>
    ) : null;

  return (
    <>
      <nav
        aria-label="Dashboard"
        className="hidden flex-col gap-6 lg:sticky lg:top-24 lg:flex lg:rounded-box lg:border lg:border-base-300 lg:bg-base-100 lg:p-4 lg:shadow-soft"
      >
        {user ? (
          <div className="flex items-center gap-3 border-b border-base-300 px-1 pb-5">
            <UserAvatar name={user.name} image={user.image} />
            {/* Cut to the menu's width; the whole of each on hover. */}
            <div className="min-w-0">
              <p className="truncate font-semibold text-neutral" title={user.name}>
                {user.name}
              </p>
              <p className="truncate text-sm text-muted" title={user.email}>
                {user.email}
              </p>
            </div>
          </div>
        ) : null}
        <Links items={PATIENT_ITEMS} />
        {adminLinks}
      </nav>
      {menuSlot
        ? createPortal(
            <nav
              aria-label="Dashboard"
              className="mt-3 flex flex-col gap-5 border-t border-base-300 pt-4"
            >
              <Links items={PATIENT_ITEMS} />
              {adminLinks}
            </nav>,
            menuSlot,
          )
        : null}
    </>
  );
}
