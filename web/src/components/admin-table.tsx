import type { ReactNode } from 'react';
import { Email } from './email';
import { CardCell, card, TableRegion } from './responsive-table';

/** A column's heading; a `hidden` one (the avatar, the actions) is read out but not shown. */
export type Column = string | { hidden: string };

/**
 * The table of an administration list (users, doctors, treatments): a table on large screens, a
 * card per row on smaller ones (responsive-table.tsx). `children` are its rows (AdminRow).
 */
export function AdminTable({
  labelledBy,
  columns,
  children,
}: {
  labelledBy: string;
  columns: Column[];
  children: ReactNode;
}) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className={`table lg:[&_td]:px-3 lg:[&_th]:px-3 ${card.table}`}>
        <thead className={`bg-base-200/70 text-sm text-neutral ${card.head}`}>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.hidden} scope="col">
                  <span className="sr-only">{column.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className={card.body}>{children}</tbody>
      </table>
    </TableRegion>
  );
}

export function AdminRow({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <tr id={id} className={`hover:bg-base-200/40 max-lg:hover:bg-base-100 ${card.row}`}>
      {children}
    </tr>
  );
}

/** The row's email, labelled 'Email' on a card. */
export function EmailCell({ address }: { address: string }) {
  return (
    <CardCell label="Email" className="xl:min-w-40">
      <Email address={address} />
    </CardCell>
  );
}
