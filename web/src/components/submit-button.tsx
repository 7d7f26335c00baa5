import type { ReactNode } from 'react';

/**
 * A form's submit button, which says what it is doing (`pendingLabel`) while it is sent. While
 * pending it is disabled for assistive technology (`aria-disabled`) and refuses the click, not
 * `disabled`: a disabled button drops the keyboard focus to the page's start.
 */
export function SubmitButton({
  pending,
  pendingLabel,
  tone = 'primary',
  className = '',
  children,
}: {
  pending: boolean;
  pendingLabel: string;
  /** 'danger' for a submit that destroys something (deleting an account). */
  tone?: 'primary' | 'danger';
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={`btn ${tone === 'danger' ? 'btn-error' : 'btn-primary'} ${pending ? 'btn-disabled' : ''} ${className}`}
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
