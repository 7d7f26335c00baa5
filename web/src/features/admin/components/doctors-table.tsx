import type { Doctor } from '@doctors-portal/contract';
import { card, TableRegion } from '../../../components/responsive-table';
import { UserAvatar } from '../../../components/user-avatar';
import { Email } from './email';
import { ThumbDownIcon, ThumbUpIcon, TrashIcon } from './icons';

export interface DoctorsTableProps {
  doctors: Doctor[];
  /** The email of the doctor being deleted right now. */
  deleting: string | null;
  onLike: (doctor: Doctor) => void;
  onDislike: (doctor: Doctor) => void;
  onDelete: (doctor: Doctor) => void;
  labelledBy: string;
}

/**
 * The clinic's doctors (spec: avatar, name, email, specialty, like, dislike) with a Delete button
 * each: a table on large screens, cards on smaller ones. Every button's accessible name starts
 * with its visible text and names the doctor ('Like Dr. Ana').
 */
export function DoctorsTable({
  doctors,
  deleting,
  onLike,
  onDislike,
  onDelete,
  labelledBy,
}: DoctorsTableProps) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className={`table lg:[&_td]:px-3 lg:[&_th]:px-3 ${card.table}`}>
        <thead className={`bg-base-200/70 text-sm text-neutral ${card.head}`}>
          <tr>
            <th scope="col">
              <span className="sr-only">Avatar</span>
            </th>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Specialty</th>
            <th scope="col">Like</th>
            <th scope="col">Dislike</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className={card.body}>
          {doctors.map((doctor) => {
            const busy = deleting === doctor.email;
            return (
              <tr
                key={doctor._id}
                className={`hover:bg-base-200/40 max-lg:hover:bg-base-100 ${card.row}`}
              >
                <td className={`w-14 ${card.plain}`}>
                  <UserAvatar name={doctor.name} image={doctor.image} size="size-12" />
                </td>
                <th
                  scope="row"
                  className={`text-left font-semibold text-neutral xl:min-w-36 max-lg:min-w-0 max-lg:flex-1 ${card.plain}`}
                >
                  <span className="block break-words">{doctor.name}</span>
                </th>
                <td data-label="Email" className={`xl:min-w-40 ${card.line}`}>
                  <Email address={doctor.email} />
                </td>
                <td
                  data-label="Specialty"
                  className={`${card.line} max-lg:border-b max-lg:border-base-300 max-lg:pb-3`}
                >
                  {doctor.specialty}
                </td>
                <td className={card.plain}>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm gap-1.5 text-primary hover:bg-mint lg:btn-square"
                    aria-label={`Like ${doctor.name}`}
                    title={`Like ${doctor.name}`}
                    onClick={() => onLike(doctor)}
                  >
                    <ThumbUpIcon />
                    <span className="lg:sr-only">Like</span>
                  </button>
                </td>
                <td className={card.plain}>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm gap-1.5 text-secondary hover:bg-base-200 lg:btn-square"
                    aria-label={`Dislike ${doctor.name}`}
                    title={`Dislike ${doctor.name}`}
                    onClick={() => onDislike(doctor)}
                  >
                    <ThumbDownIcon />
                    <span className="lg:sr-only">Dislike</span>
                  </button>
                </td>
                <td className={`text-right max-lg:ml-auto ${card.plain}`}>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm gap-1.5 text-error hover:bg-error/10"
                    aria-label={`Delete ${doctor.name}`}
                    onClick={() => onDelete(doctor)}
                    disabled={busy}
                  >
                    {busy ? (
                      <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                    ) : (
                      <TrashIcon />
                    )}
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
