/** The shared loading spinner; `label` is announced to screen readers. */
export function Spinner({
  label = 'Loading…',
  className = '',
}: {
  label?: string;
  className?: string;
}) {
  return (
    <span role="status" className={`inline-flex items-center gap-2 ${className}`}>
      <span className="loading loading-spinner loading-md text-primary" aria-hidden="true" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A spinner centred in the page while a screen waits for what it needs. */
export function PageLoader({ label }: { label?: string }) {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label={label} />
    </div>
  );
}

/** Shown in a button while its change is under way. */
export function ButtonSpinner() {
  return <span className="loading loading-spinner loading-xs" aria-hidden="true" />;
}
