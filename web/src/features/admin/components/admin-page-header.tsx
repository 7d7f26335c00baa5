import type { ReactNode, Ref } from 'react';

/**
 * The title of an admin screen under its 'Administration' eyebrow, with a link to the screen's
 * companion beside it (`action`). A screen that moves the focus to its title after a change
 * passes `headingRef`: the title then takes the focus, without an outline.
 */
export function AdminPageHeader({
  title,
  headingId,
  headingRef,
  action,
}: {
  title: string;
  headingId?: string;
  headingRef?: Ref<HTMLHeadingElement>;
  action?: ReactNode;
}) {
  const heading = (
    <div>
      <p className="eyebrow">Administration</p>
      <h1
        id={headingId}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`heading-2 mt-2 text-neutral${headingRef ? ' outline-none' : ''}`}
      >
        {title}
      </h1>
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
