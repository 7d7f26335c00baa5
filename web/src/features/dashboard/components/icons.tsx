import type { ReactNode } from 'react';
import { Icon } from '../../../components/icon';

/** Line icons of the dashboard's sidebar. */
const LinkIcon = ({ children }: { children: ReactNode }) => (
  <Icon className="size-5 shrink-0">{children}</Icon>
);

export const CalendarIcon = () => (
  <LinkIcon>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4" />
  </LinkIcon>
);

export const StarIcon = () => (
  <LinkIcon>
    <path d="m12 3.5 2.6 5.3 5.8.8-4.2 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.2-4.1 5.8-.8z" />
  </LinkIcon>
);

export const HistoryIcon = () => (
  <LinkIcon>
    <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6" />
    <path d="M3.5 4v4h4M12 7.5V12l3 2" />
  </LinkIcon>
);

export const AccountIcon = () => (
  <LinkIcon>
    <circle cx="12" cy="8" r="3.5" />
    <path d="M5 19.5a7 7 0 0 1 14 0" />
  </LinkIcon>
);

export const UsersIcon = () => (
  <LinkIcon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.7a3.5 3.5 0 0 1 0 6.6M18 14.2a6.5 6.5 0 0 1 3.5 5.8" />
  </LinkIcon>
);

export const DoctorPlusIcon = () => (
  <LinkIcon>
    <circle cx="10" cy="7.5" r="3.5" />
    <path d="M3.5 20a6.5 6.5 0 0 1 11-4.7M18.5 14v6M15.5 17h6" />
  </LinkIcon>
);

export const AuditIcon = () => (
  <LinkIcon>
    <path d="M6.5 3.5h8l3.5 3.5v13.5h-11.5z" />
    <path d="M14.5 3.5V7H18M9.5 11h5M9.5 14.5h5M9.5 18h3" />
  </LinkIcon>
);

export const InboxIcon = () => (
  <LinkIcon>
    <rect x="3.5" y="5.5" width="17" height="13" rx="2.5" />
    <path d="m4 7 8 6 8-6" />
  </LinkIcon>
);

export const ClipboardIcon = () => (
  <LinkIcon>
    <rect x="5" y="4.5" width="14" height="16" rx="2" />
    <path d="M9 3.5h6v3H9zM8.5 11h7M8.5 15h5" />
  </LinkIcon>
);

export const ScheduleIcon = () => (
  <LinkIcon>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4M7.5 13.5h3M7.5 17h3M13.5 13.5h3" />
  </LinkIcon>
);

export const TreatmentIcon = () => (
  <LinkIcon>
    <path d="M7.5 3.5c-2.5 0-4 2-4 4.5 0 3 1.5 4.5 2 8 .4 2.8 1.2 4.5 2.3 4.5 1.5 0 1.6-5 4.2-5s2.7 5 4.2 5c1.1 0 1.9-1.7 2.3-4.5.5-3.5 2-5 2-8 0-2.5-1.5-4.5-4-4.5-1.9 0-2.8 1-4.5 1s-2.6-1-4.5-1z" />
  </LinkIcon>
);

/** A calendar with a day struck out: the clinic's opening days and closures. */
export const ClosedDayIcon = () => (
  <LinkIcon>
    <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4M9.5 13l5 5M14.5 13l-5 5" />
  </LinkIcon>
);

export const OutboxIcon = () => (
  <LinkIcon>
    <rect x="3.5" y="5.5" width="17" height="13" rx="2.5" />
    <path d="m4 7 8 6 8-6M15 15.5h4m-1.5-1.5 1.5 1.5-1.5 1.5" />
  </LinkIcon>
);
