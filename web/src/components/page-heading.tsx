import { type ReactNode, type Ref, type RefObject, useId, useMemo, useRef } from 'react';

/** A screen's title as the screen holds it: its id, to name a list by, and its element. */
export interface ScreenHeading {
  id: string;
  ref: RefObject<HTMLHeadingElement | null>;
}

/**
 * The title of a screen that names its list by it and moves the focus to it after a change
 * (`heading.ref.current?.focus()`); given to PageHeading as `heading`.
 */
export function useScreenHeading(): ScreenHeading {
  const id = useId();
  const ref = useRef<HTMLHeadingElement>(null);
  return useMemo(() => ({ id, ref }), [id]);
}

/**
 * The title of a dashboard screen under its eyebrow ('Administration', 'Dashboard'), with a link
 * or button beside it (`action`) and what the title is followed by (`children`, such as the
 * range a schedule shows). A screen that moves the focus to its title after a change passes
 * `heading` (see useScreenHeading), or its parts `headingId` and `headingRef`: the title then
 * takes the focus, without an outline. A screen that lists things gives their `count` once it
 * knows it: 'All Users: 3'.
 */
export function PageHeading({
  eyebrow,
  title,
  count,
  heading,
  headingId = heading?.id,
  headingRef = heading?.ref,
  action,
  className,
  children,
}: {
  eyebrow: string;
  title: string;
  /** What follows the title once loaded: a number, or a phrase such as '2 unread'. */
  count?: number | string;
  heading?: ScreenHeading;
  headingId?: string;
  headingRef?: Ref<HTMLHeadingElement>;
  action?: ReactNode;
  /** Classes of the heading's block, such as `print:hidden`. */
  className?: string;
  children?: ReactNode;
}) {
  const block = (
    <div className={className}>
      <p className="eyebrow">{eyebrow}</p>
      <h1
        id={headingId}
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className={`heading-2 mt-2 text-neutral${headingRef ? ' outline-none' : ''}`}
      >
        {count === undefined ? title : `${title}: ${count}`}
      </h1>
      {children}
    </div>
  );
  // The same elements with an action or without, so that a screen whose action comes and goes
  // (hidden while its form is open) keeps its title, and the focus it may hold.
  return (
    <div className={action ? 'flex flex-wrap items-end justify-between gap-3' : undefined}>
      {block}
      {action}
    </div>
  );
}
