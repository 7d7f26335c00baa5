import type { ReactNode, Ref } from 'react';

/**
 * The title of a dashboard screen under its eyebrow ('Administration', 'Dashboard'), with a link
 * or button beside it (`action`) and what the title is followed by (`children`, such as the
 * range a schedule shows). A screen that moves the focus to its title after a change passes
 * `headingRef`: the title then takes the focus, without an outline.
 */
export function PageHeading({
  eyebrow,
  title,
  headingId,
  headingRef,
  action,
  className,
  children,
}: {
  eyebrow: string;
  title: string;
  headingId?: string;
  headingRef?: Ref<HTMLHeadingElement>;
  action?: ReactNode;
  /** Classes of the heading's block, such as `print:hidden`. */
  className?: string;
  children?: ReactNode;
}) {
  const heading = (
    <div className={className}>
      <p className="eyebrow">{eyebrow}</p>
      <h1
        id={headingId}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`heading-2 mt-2 text-neutral${headingRef ? ' outline-none' : ''}`}
      >
        {title}
      </h1>
      {children}
    </div>
  );
  if (!action) return heading;
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      {heading}
      {action}
    </div>
  );
}
