import type { ReactNode } from 'react';

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
