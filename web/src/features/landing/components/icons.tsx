import type { ReactNode } from 'react';
import { Icon } from '../../../components/icon';

/** Small line icons drawn with the text colour, a little finer than the app's. */
type IconProps = { className?: string };

const LineIcon = ({ className = 'size-6', children }: IconProps & { children: ReactNode }) => (
  <Icon className={className} strokeWidth={1.8}>
    {children}
  </Icon>
);

export const ClockIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </LineIcon>
);

export const PinIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M12 21s-7-6.1-7-11.5A7 7 0 0 1 19 9.5C19 14.9 12 21 12 21z" />
    <circle cx="12" cy="9.5" r="2.5" />
  </LineIcon>
);

export const PhoneIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M5 4h3.5l1.5 4-2 1.5a11 11 0 0 0 6.5 6.5L16 14l4 1.5V19a1.5 1.5 0 0 1-1.6 1.5C10.6 20 4 13.4 3.5 5.6A1.5 1.5 0 0 1 5 4z" />
  </LineIcon>
);

export const MailIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <rect x="3" y="5" width="18" height="14" rx="2.5" />
    <path d="M4 7l8 6 8-6" />
  </LineIcon>
);

export const CheckIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M5 12.5l4.5 4.5L19 7.5" />
  </LineIcon>
);

export const ArrowIcon = (props: IconProps) => (
  <LineIcon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </LineIcon>
);

export const QuoteIcon = ({ className = 'size-8' }: IconProps) => (
  <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
    <path
      fill="currentColor"
      d="M13 7C7.5 8.6 4 12.8 4 18.6V25h9v-9H8.6c.4-3.3 2.4-5.6 5.4-6.8L13 7zm15 0c-5.5 1.6-9 5.8-9 11.6V25h9v-9h-4.4c.4-3.3 2.4-5.6 5.4-6.8L28 7z"
    />
  </svg>
);
