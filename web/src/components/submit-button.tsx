import type { ReactNode } from 'react';

/** A form's submit button, which says what it is doing (`pendingLabel`) while it is sent. */
export function SubmitButton({
  pending,
  pendingLabel,
  className = '',
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={`btn btn-primary ${className}`} disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
