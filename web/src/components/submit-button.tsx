import type { ReactNode } from 'react';

/**
 * A form's submit button, which says what it is doing (`pendingLabel`) while it is sent. While
 * pending it is disabled for assistive technology (`aria-disabled`) and refuses the click, not
 * `disabled`: a disabled button drops the keyboard focus to the page's start.
 */
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
    <button
      type="submit"
      className={`btn btn-primary ${pending ? 'btn-disabled' : ''} ${className}`}
      aria-disabled={pending || undefined}
      // Enter in a field submits through this click too: while pending, nothing is sent twice.
      onClick={(event) => {
        if (pending) event.preventDefault();
      }}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
