import { paths } from '@doctors-portal/contract';
import { type ReactNode, useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import {
  DASHBOARD_SIDEBAR_ID,
  setSidebarOpen,
  useSidebar,
  useSidebarPresence,
} from '../../../components/layout/sidebar-toggle';
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
  end?: boolean;
}

/** The spec's sidebar links, in its order, then the patient's own account. */
const PATIENT_ITEMS: Item[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: <CalendarIcon />, end: true },
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

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-3 rounded-field px-3.5 py-2.5 font-medium transition-colors ${
    isActive
      ? 'bg-primary text-primary-content shadow-soft'
      : 'text-base-content hover:bg-mint hover:text-primary'
  }`;

function Links({ items }: { items: Item[] }) {
  return (
    <ul className="flex flex-col gap-1">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to} end={item.end} className={linkClass}>
            {item.icon}
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Large screens (daisyUI's lg breakpoint) always show the sidebar beside the content. */
const WIDE = '(min-width: 64rem)';

/**
 * The dashboard's sidebar: a column beside the content on large screens, and a drawer over the
 * page on small ones, opened by the navigation bar's toggle (the shared `useSidebar()` store).
 * The open drawer takes focus, closes on Escape, on a click beside it and on navigation.
 */
export function DashboardSidebar() {
  const { user } = useAuth();
  const admin = useAdminStatus();
  const sidebar = useSidebar();
  useSidebarPresence();
  const panel = useRef<HTMLElement>(null);
  const open = sidebar.open;

  useEffect(() => {
    if (!open || window.matchMedia(WIDE).matches) return;
    // The navigation bar's toggle opened the drawer: Escape gives focus back to it.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setSidebarOpen(false);
      opener?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // Leaving the dashboard closes the drawer, so it is not open on the next visit.
  useEffect(() => () => setSidebarOpen(false), []);

  return (
    <div
      id={DASHBOARD_SIDEBAR_ID}
      className={
        open ? 'fixed inset-x-0 bottom-0 top-16 z-30 lg:static lg:z-auto' : 'hidden lg:block'
      }
    >
      {/* The backdrop is a pointer convenience: Escape and the toggle close the drawer for keyboards. */}
      <div
        aria-hidden="true"
        className="absolute inset-0 bg-neutral/40 lg:hidden"
        onClick={() => setSidebarOpen(false)}
      />
      <nav
        ref={panel}
        aria-label="Dashboard"
        className="relative flex h-full w-72 max-w-[85vw] flex-col gap-6 overflow-y-auto bg-base-100 p-5 shadow-lift lg:sticky lg:top-24 lg:h-auto lg:w-auto lg:max-w-none lg:overflow-visible lg:rounded-box lg:border lg:border-base-300 lg:p-4 lg:shadow-soft"
      >
        {user ? (
          <div className="flex items-center gap-3 border-b border-base-300 px-1 pb-5">
            <UserAvatar name={user.name} image={user.image} />
            <div className="min-w-0">
              <p className="truncate font-semibold text-neutral">{user.name}</p>
              <p className="truncate text-sm text-muted">{user.email}</p>
            </div>
          </div>
        ) : null}
        <Links items={PATIENT_ITEMS} />
        {admin.data === true ? (
          <div className="border-t border-base-300 pt-5">
            <p className="px-3.5 pb-2 text-xs font-semibold uppercase tracking-[0.14em] text-muted">
              Administration
            </p>
            <Links items={ADMIN_ITEMS} />
          </div>
        ) : null}
      </nav>
    </div>
  );
}
