import type { ReactNode } from 'react';
import { Icon } from '../../../components/icon';

/** Small line icons for the admin tables' buttons. */
const ButtonIcon = ({ children }: { children: ReactNode }) => (
  <Icon className="size-4 shrink-0">{children}</Icon>
);

export const ThumbUpIcon = () => (
  <ButtonIcon>
    <path d="M7 10v10H4V10zM7 10l4-7a2.5 2.5 0 0 1 2.5 2.5V9h5.2a2 2 0 0 1 2 2.3l-1.3 7A2 2 0 0 1 17.4 20H7" />
  </ButtonIcon>
);

export const ThumbDownIcon = () => (
  <ButtonIcon>
    <path d="M17 14V4h3v10zM17 14l-4 7a2.5 2.5 0 0 1-2.5-2.5V15H5.3a2 2 0 0 1-2-2.3l1.3-7A2 2 0 0 1 6.6 4H17" />
  </ButtonIcon>
);

export const TrashIcon = () => (
  <ButtonIcon>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12.5A1.5 1.5 0 0 0 8.5 21h7a1.5 1.5 0 0 0 1.5-1.5L18 7M9 7V4.5A1.5 1.5 0 0 1 10.5 3h3A1.5 1.5 0 0 1 15 4.5V7" />
  </ButtonIcon>
);

export const PencilIcon = () => (
  <ButtonIcon>
    <path d="M4 20h4L19 9a2.8 2.8 0 0 0-4-4L4 16zM13.5 6.5l4 4" />
  </ButtonIcon>
);

export const CalendarIcon = () => (
  <ButtonIcon>
    <path d="M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zM4 10h16M8 3v4M16 3v4" />
  </ButtonIcon>
);
