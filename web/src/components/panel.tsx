import { type ReactNode, type Ref, useId } from 'react';
import { ButtonSpinner } from './spinner';

/**
 * A bordered card of a dashboard screen (an edit form, the CSV export), named by its heading.
 * With `headingRef` the heading can take the focus, for a panel that opens on a click.
 */
export function Panel({
  title,
  headingRef,
  className = 'sm:p-6',
  children,
}: {
  title: string;
  headingRef?: Ref<HTMLHeadingElement>;
  /** Classes added to the card's own (its padding on wider screens by default). */
  className?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-box border border-base-300 bg-base-100 p-4 shadow-soft ${className}`}
    >
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`heading-3 text-neutral ${headingRef ? 'outline-none' : ''}`}
      >
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A form's Cancel and submit buttons, at its end; both wait while it is being sent. */
export function FormActions({
  busy,
  onCancel,
  submitLabel,
  className = '',
}: {
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
  className?: string;
}) {
  return (
    <div className={`flex flex-wrap justify-end gap-3 ${className}`}>
      <button type="button" className="btn btn-ghost" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? <ButtonSpinner /> : null}
        {submitLabel}
      </button>
    </div>
  );
}
