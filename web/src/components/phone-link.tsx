import type { ReactNode } from 'react';

/**
 * A link that calls `phone`: its address keeps the digits and a leading '+' alone ('+1 (555)
 * 010-1234' → 'tel:+15550101234'). It shows the number, unless given what to show instead.
 */
export function PhoneLink({
  phone,
  className,
  children = phone,
}: {
  phone: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <a href={`tel:${phone.replace(/[^\d+]/g, '')}`} className={className}>
      {children}
    </a>
  );
}
