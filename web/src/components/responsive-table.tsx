import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from './spinner';

/** Whether the element is wider than its box, i.e. scrolls sideways. */
function useScrollsSideways<T extends HTMLElement>(ref: RefObject<T | null>) {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}

const line =
  'max-lg:flex max-lg:basis-full max-lg:justify-between max-lg:gap-4 max-lg:border-0 max-lg:p-0 max-lg:text-right max-lg:before:shrink-0 max-lg:before:text-sm max-lg:before:text-muted max-lg:before:content-[attr(data-label)]';

/**
 * The classes of a responsive table. Below the large breakpoint (where the dashboard's sidebar
 * turns into a drawer) each row is laid out as a card: a head line on top, then one line per
 * labelled cell (`data-label`), then the row's actions. The elements stay a table, so assistive
 * technology still reads rows and columns.
 */
export const card = {
  table: 'max-lg:block',
  head: 'max-lg:sr-only',
  body: 'max-lg:flex max-lg:flex-col max-lg:gap-4',
  row: 'max-lg:flex max-lg:flex-wrap max-lg:items-center max-lg:gap-x-3 max-lg:gap-y-2.5 max-lg:rounded-box max-lg:border max-lg:border-base-300 max-lg:bg-base-100 max-lg:p-4 max-lg:shadow-soft',
  plain: 'max-lg:border-0 max-lg:p-0',
  /** A labelled line, its label and value centred on each other. */
  line: `${line} max-lg:items-center`,
  /** A labelled line whose value may take two lines, its label beside the first. */
  lineTop: `${line} max-lg:items-start`,
  actions:
    'max-lg:mt-1 max-lg:basis-full max-lg:border-0 max-lg:border-t max-lg:border-base-300 max-lg:px-0 max-lg:pb-0 max-lg:pt-3',
};

/**
 * A cell that, in a row laid out as a card, reads as a line: its `label`, then its value. `wrap`
 * for a value that may take two lines, the label staying beside the first.
 */
export function CardCell({
  label,
  wrap = false,
  className = '',
  children,
}: {
  label: string;
  wrap?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td data-label={label} className={`${className} ${wrap ? card.lineTop : card.line}`}>
      {children}
    </td>
  );
}

/**
 * The box around a table: a bordered card on large screens. Should the table ever be wider than
 * its box, it scrolls inside a region that the keyboard can reach.
 */
export function TableRegion({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  const box = useRef<HTMLElement>(null);
  const scrolls = useScrollsSideways(box);
  return (
    <section
      ref={box}
      aria-labelledby={labelledBy}
      // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
      tabIndex={scrolls ? 0 : undefined}
      className="overflow-x-auto lg:rounded-box lg:border lg:border-base-300 lg:bg-base-100 lg:shadow-soft"
    >
      {children}
    </section>
  );
}

/**
 * What a table shows while its first answer is on the way: a spinner announcing `label`, or
 * `children` in its place.
 */
export function TableLoading({ label, children }: { label?: string; children?: ReactNode }) {
  return (
    <div className="flex justify-center rounded-box border border-base-300 bg-base-100 py-16">
      {children ?? <Spinner label={label} />}
    </div>
  );
}

/** The dashed box shown when a list is empty. */
export function EmptyState({
  title,
  children,
  link,
  action = link ? (
    <Link to={link.to} className="btn btn-primary">
      {link.label}
    </Link>
  ) : null,
}: {
  title: string;
  children: ReactNode;
  /** Where to go from here, as the box's button: 'Book an appointment'. */
  link?: { to: string; label: string };
  /** Another action in its place. */
  action?: ReactNode;
}) {
  return (
    <div className="rounded-box border border-dashed border-base-300 bg-base-100 px-6 py-12 text-center">
      <p className="heading-3 text-neutral">{title}</p>
      <p className="mx-auto mt-2 max-w-md text-muted">{children}</p>
      {action ? <div className="mt-6">{action}</div> : null}
    </div>
  );
}
