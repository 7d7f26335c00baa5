import { type Doctor, WEEKDAY_NAMES } from '@doctors-portal/contract';
import type { ReactNode } from 'react';
import { AdminRow, AdminTable, type Column, EmailCell } from '../../../components/admin-table';
import { CardCell, card } from '../../../components/responsive-table';
import { ButtonSpinner } from '../../../components/spinner';
import { UserAvatar } from '../../../components/user-avatar';
import { CalendarIcon, PencilIcon, ThumbDownIcon, ThumbUpIcon, TrashIcon } from './icons';

export interface DoctorsTableProps {
  doctors: Doctor[];
  /** The email of the doctor being deleted right now. */
  deleting: string | null;
  onLike: (doctor: Doctor) => void;
  onDislike: (doctor: Doctor) => void;
  onDelete: (doctor: Doctor) => void;
  onEdit: (doctor: Doctor) => void;
  onCalendarFeed: (doctor: Doctor) => void;
  labelledBy: string;
}

/** Weekdays as short runs: [1, 2, 3, 4, 5] is 'Mon–Fri', [0, 2, 3] is 'Sun, Tue, Wed'. */
function dayRuns(days: number[]): string {
  const short = (day: number) => WEEKDAY_NAMES[day]?.slice(0, 3) ?? '';
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const day of sorted) {
    const run = runs.at(-1);
    if (run && run.at(-1) === day - 1) run.push(day);
    else runs.push([day]);
  }
  return runs
    .flatMap((run) =>
      run.length >= 3 ? [`${short(run[0] ?? 0)}–${short(run.at(-1) ?? 0)}`] : run.map(short),
    )
    .join(', ');
}

/** 'Every day', 'Mon–Fri' or 'No work days', and how many days off are listed. */
function hoursOf(doctor: Doctor): string {
  const days =
    doctor.workDays.length === 7
      ? 'Every day'
      : doctor.workDays.length === 0
        ? 'No work days'
        : dayRuns(doctor.workDays);
  const off = doctor.daysOff.length;
  return off === 0 ? days : `${days} · ${off} ${off === 1 ? 'day' : 'days'} off`;
}

const COLUMNS: Column[] = [
  { hidden: 'Avatar' },
  'Name',
  'Email',
  'Specialty',
  'Like',
  'Dislike',
  { hidden: 'Actions' },
];

/**
 * The clinic's doctors (spec: avatar, name, email, specialty, like, dislike; under the specialty,
 * how many other treatments they perform and when they work) with Edit, Calendar feed and
 * Delete buttons each: a table on large screens, cards on smaller ones. Every button's
 * accessible name starts with its visible text and names the doctor ('Like Dr. Ana').
 */
export function DoctorsTable({
  doctors,
  deleting,
  onLike,
  onDislike,
  onDelete,
  onEdit,
  onCalendarFeed,
  labelledBy,
}: DoctorsTableProps) {
  return (
    <AdminTable labelledBy={labelledBy} columns={COLUMNS}>
      {doctors.map((doctor) => {
        const busy = deleting === doctor.email;
        return (
          <AdminRow key={doctor._id}>
            <td className={`w-14 ${card.plain}`}>
              <UserAvatar name={doctor.name} image={doctor.image} size="size-12" />
            </td>
            <th
              scope="row"
              className={`text-left font-semibold text-neutral xl:min-w-36 max-lg:min-w-0 max-lg:flex-1 ${card.plain}`}
            >
              <span className="block break-words">{doctor.name}</span>
            </th>
            <EmailCell address={doctor.email} />
            <CardCell
              label="Specialty"
              className="max-lg:border-b max-lg:border-base-300 max-lg:pb-3"
            >
              <span className="flex flex-col gap-0.5 max-lg:items-end">
                <span>{doctor.specialty}</span>
                {doctor.treatmentIds.length > 1 ? (
                  <span className="text-xs text-muted">
                    {`+${doctor.treatmentIds.length - 1} more ${doctor.treatmentIds.length === 2 ? 'treatment' : 'treatments'}`}
                  </span>
                ) : null}
                <span className="text-xs text-muted">{hoursOf(doctor)}</span>
              </span>
            </CardCell>
            <FeedbackCell
              label="Like"
              doctor={doctor}
              look="text-primary hover:bg-mint"
              icon={<ThumbUpIcon />}
              onClick={() => onLike(doctor)}
            />
            <FeedbackCell
              label="Dislike"
              doctor={doctor}
              look="text-secondary hover:bg-base-200"
              icon={<ThumbDownIcon />}
              onClick={() => onDislike(doctor)}
            />
            <td className={`text-right max-lg:ml-auto ${card.plain}`}>
              <span className="flex flex-wrap justify-end gap-1">
                <button
                  type="button"
                  className="btn btn-ghost btn-sm gap-1.5 text-primary hover:bg-mint"
                  aria-label={`Edit ${doctor.name}`}
                  data-edit-doctor={doctor._id}
                  onClick={() => onEdit(doctor)}
                >
                  <PencilIcon />
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm gap-1.5 text-primary hover:bg-mint"
                  aria-label={`Calendar feed for ${doctor.name}`}
                  data-calendar-feed={doctor._id}
                  onClick={() => onCalendarFeed(doctor)}
                >
                  <CalendarIcon />
                  Calendar feed
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-sm gap-1.5 text-error hover:bg-error/10"
                  aria-label={`Delete ${doctor.name}`}
                  onClick={() => onDelete(doctor)}
                  disabled={busy}
                >
                  {busy ? <ButtonSpinner /> : <TrashIcon />}
                  Delete
                </button>
              </span>
            </td>
          </AdminRow>
        );
      })}
    </AdminTable>
  );
}

/**
 * Like or Dislike: an icon button on large screens, its text beside the icon on smaller ones; its
 * accessible name and tooltip name the doctor ('Like Dr. Ana').
 */
function FeedbackCell({
  label,
  doctor,
  look,
  icon,
  onClick,
}: {
  label: string;
  doctor: Doctor;
  look: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  const name = `${label} ${doctor.name}`;
  return (
    <td className={card.plain}>
      <button
        type="button"
        className={`btn btn-ghost btn-sm gap-1.5 ${look} lg:btn-square`}
        aria-label={name}
        title={name}
        onClick={onClick}
      >
        {icon}
        <span className="lg:sr-only">{label}</span>
      </button>
    </td>
  );
}
