import { type ReactNode, type RefObject, useEffect, useRef } from 'react';

export interface PaginationProps {
  /** 0-based. */
  page: number;
  pageSize: number;
  total: number;
  /** How many items the shown page holds. */
  shown: number;
  /** What is being counted, for the navigation's label ('Users'). */
  label: string;
  /** Above the list (announces the change of page) or below it. */
  placement: 'top' | 'bottom';
  onPage: (page: number, button: 'previous' | 'next') => void;
}

/**
 * A paging button. At either end it is only marked unavailable (aria-disabled), not disabled, so
 * that keyboard focus stays on it after the last click.
 */
function PageButton({
  which,
  enabled,
  onClick,
  children,
}: {
  which: 'previous' | 'next';
  enabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      data-page={which}
      className="btn btn-outline btn-primary btn-sm join-item aria-disabled:cursor-not-allowed aria-disabled:border-base-300 aria-disabled:bg-base-100 aria-disabled:text-muted"
      aria-disabled={enabled ? undefined : true}
      onClick={enabled ? onClick : undefined}
    >
      {children}
    </button>
  );
}

/**
 * 'Showing 1–50 of 312' with Previous and Next; nothing to page through, no buttons. A long list
 * has one above and one below it; the one above announces the new range.
 */
export function Pagination({
  page,
  pageSize,
  total,
  shown,
  label,
  placement,
  onPage,
}: PaginationProps) {
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = page * pageSize + shown;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const summary = `Showing ${first}–${last} of ${total}`;
  if (pages <= 1) {
    return placement === 'bottom' ? <p className="text-sm text-muted">{summary}</p> : null;
  }
  return (
    <nav
      aria-label={placement === 'top' ? `${label} pages` : `${label} pages, below the list`}
      className="flex flex-col items-center justify-between gap-3 sm:flex-row"
    >
      <p className="text-sm text-muted" aria-live={placement === 'top' ? 'polite' : undefined}>
        {summary}
        <span className="sr-only">{`, page ${page + 1} of ${pages}`}</span>
      </p>
      <div className="join">
        <PageButton
          which="previous"
          enabled={page > 0}
          onClick={() => onPage(page - 1, 'previous')}
        >
          <span aria-hidden="true">←</span> Previous
        </PageButton>
        <span
          aria-hidden="true"
          className="join-item flex items-center border-y border-base-300 bg-base-100 px-3 text-sm font-medium tabular-nums"
        >
          {page + 1} / {pages}
        </span>
        <PageButton
          which="next"
          enabled={page < pages - 1}
          onClick={() => onPage(page + 1, 'next')}
        >
          Next <span aria-hidden="true">→</span>
        </PageButton>
      </div>
    </nav>
  );
}

/** The page in the address is 1-based ('?page=2'); anything else means the first page. */
export function pageFrom(search: URLSearchParams): number {
  const page = Number(search.get('page'));
  return Number.isInteger(page) && page > 1 ? page - 1 : 0;
}

type Placement = PaginationProps['placement'];

/**
 * The paging of a list shown a page at a time, above and below it. `goTo` puts another page in
 * the address. A page past the end (an old link, or the last item of the last page gone) goes to
 * the last one; paging from below the list goes back to its top, to the same button above it.
 */
export function usePaging({
  total,
  settled,
  goTo,
  heading,
  ...list
}: Pick<PaginationProps, 'page' | 'pageSize' | 'label'> & {
  /** The list's length, once known. */
  total: number | undefined;
  /** The answer shown is the page's own, not the last one kept while it loads. */
  settled: boolean;
  goTo: (page: number) => void;
  /** The screen's heading, which paging from below scrolls back to. */
  heading: RefObject<HTMLElement | null>;
}) {
  const topPages = useRef<HTMLDivElement>(null);
  const lastPage = total === undefined ? 0 : Math.max(0, Math.ceil(total / list.pageSize) - 1);
  const pastTheEnd = settled && total !== undefined && list.page > lastPage;
  // biome-ignore lint/correctness/useExhaustiveDependencies: goTo only wraps setSearch.
  useEffect(() => {
    if (pastTheEnd) goTo(lastPage);
  }, [pastTheEnd, lastPage]);

  const turnPage = (next: number, placement: Placement, button: 'previous' | 'next') => {
    goTo(next);
    if (placement === 'top') return;
    heading.current?.scrollIntoView({ block: 'start' });
    topPages.current
      ?.querySelector<HTMLButtonElement>(`[data-page="${button}"]`)
      ?.focus({ preventScroll: true });
  };

  return {
    lastPage,
    /** The page asked for is past the last: the list is on its way to the last page. */
    pastTheEnd,
    /** The box of the paging above the list, whose buttons paging from below focuses. */
    topPages,
    /** The paging above or below a page that shows `shown` items. */
    pages: (shown: number, placement: Placement) =>
      total === undefined ? null : (
        <Pagination
          {...list}
          total={total}
          shown={shown}
          placement={placement}
          onPage={(next, button) => turnPage(next, placement, button)}
        />
      ),
  };
}
