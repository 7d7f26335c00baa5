import type { ReactNode } from 'react';

/**
 * A screen's list of cards (messages, audit entries), named by the screen's title. While the
 * next page loads (`stale`), the page shown stays, dimmed and marked busy.
 */
export function CardList({
  ordered = false,
  labelledBy,
  stale,
  children,
}: {
  /** Whether the order means something (an `<ol>`), as the audit log's newest first does. */
  ordered?: boolean;
  labelledBy: string;
  stale: boolean;
  children: ReactNode;
}) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List
      aria-labelledby={labelledBy}
      aria-busy={stale || undefined}
      className={`flex flex-col gap-3 transition-opacity ${stale ? 'opacity-60' : ''}`}
    >
      {children}
    </List>
  );
}
