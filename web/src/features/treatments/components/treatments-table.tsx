import { formatDollars, type Treatment } from '@doctors-portal/contract';
import { AdminRow, AdminTable, type Column } from '../../../components/admin-table';
import { CardCell, card } from '../../../components/responsive-table';
import { ButtonSpinner } from '../../../components/spinner';
import { slotSummary } from '../treatment-form';

const COLUMNS: Column[] = ['Treatment', 'Price', 'Slot times', 'Status', { hidden: 'Actions' }];

export interface TreatmentsTableProps {
  treatments: Treatment[];
  labelledBy: string;
  /** The id of the treatment being retired or brought back right now. */
  busy: string | null;
  onEdit: (treatment: Treatment) => void;
  onRetire: (treatment: Treatment) => void;
  onRestore: (treatment: Treatment) => void;
}

/**
 * The clinic's treatments with their price, slot times and whether they are offered, each with
 * Edit and Retire (or Bring back): a table on large screens, cards on smaller ones. Every
 * button's accessible name names the treatment ('Edit Teeth Cleaning').
 */
export function TreatmentsTable({
  treatments,
  labelledBy,
  busy,
  onEdit,
  onRetire,
  onRestore,
}: TreatmentsTableProps) {
  return (
    <AdminTable labelledBy={labelledBy} columns={COLUMNS}>
      {treatments.map((treatment) => (
        <AdminRow key={treatment._id} id={`treatment-${treatment._id}`}>
          <th scope="row" className={`text-left font-normal max-lg:basis-full ${card.plain}`}>
            <span
              className={`block font-semibold break-words ${treatment.retired ? 'text-muted' : 'text-neutral'}`}
            >
              {treatment.name}
            </span>
            {treatment.description ? (
              <span className="mt-1 block max-w-md text-sm text-muted break-words">
                {treatment.description}
              </span>
            ) : null}
          </th>
          <CardCell label="Price" className="whitespace-nowrap">
            {formatDollars(treatment.price)}
          </CardCell>
          <CardCell label="Slot times" wrap>
            <span title={treatment.slots.join('\n')}>{slotSummary(treatment.slots)}</span>
          </CardCell>
          <CardCell label="Status">
            {treatment.retired ? (
              <span className="badge badge-ghost">Retired</span>
            ) : (
              <span className="badge badge-success badge-soft">Offered</span>
            )}
          </CardCell>
          <td className={`text-right whitespace-nowrap ${card.actions}`}>
            <div className="flex flex-wrap justify-end gap-2">
              <button
                type="button"
                className="btn btn-outline btn-primary btn-sm"
                aria-label={`Edit ${treatment.name}`}
                onClick={() => onEdit(treatment)}
              >
                Edit
              </button>
              {treatment.retired ? (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm text-primary"
                  aria-label={`Bring back ${treatment.name}`}
                  data-row-action="retire"
                  onClick={() => onRestore(treatment)}
                  disabled={busy === treatment._id}
                >
                  {busy === treatment._id ? <ButtonSpinner /> : null}
                  Bring back
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn-ghost btn-sm text-error hover:bg-error/10"
                  aria-label={`Retire ${treatment.name}`}
                  data-row-action="retire"
                  onClick={() => onRetire(treatment)}
                  disabled={busy === treatment._id}
                >
                  {busy === treatment._id ? <ButtonSpinner /> : null}
                  Retire
                </button>
              )}
            </div>
          </td>
        </AdminRow>
      ))}
    </AdminTable>
  );
}
