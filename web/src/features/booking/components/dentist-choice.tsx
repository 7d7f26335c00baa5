import type { AvailableDoctor } from '@doctors-portal/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { Icon } from '../../../components/icon';
import { UserAvatar } from '../../../components/user-avatar';

/** What a choice looks like: a bordered row, the whole of it clickable, marked when chosen. */
const OPTION =
  'flex min-h-12 cursor-pointer items-center gap-3 rounded-box border border-base-300 px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-mint/50 has-[:disabled]:cursor-default has-[:disabled]:opacity-70';

function AnyIcon() {
  return (
    <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-mint text-primary ring-1 ring-base-300">
      <Icon className="size-5">
        <circle cx="9" cy="8" r="3" />
        <path d="M3.5 19a5.5 5.5 0 0 1 11 0" />
        <circle cx="17" cy="9" r="2.5" />
        <path d="M15.5 14.2A4.5 4.5 0 0 1 21 18.5" />
      </Icon>
    </span>
  );
}

export interface DentistChoiceProps {
  /** The doctors free for the chosen slot. */
  doctors: AvailableDoctor[];
  /** The chosen doctor's id; '' for any available dentist. */
  value: string;
  onChange: (doctor: AvailableDoctor | null) => void;
  /** The list is being read again for another slot. */
  disabled?: boolean;
  /** Why the doctor chosen before is no longer offered, if they are not. */
  note?: string;
}

/**
 * The dentist picked for `slot` from the doctors free for it (`doctors`, kept while the next
 * slot's are read), and the props of its DentistChoice. A doctor chosen for another slot stays
 * chosen only while they are free for this one; when they are not, the choice says so.
 */
export function useDentistChoice(doctors: UseQueryResult<AvailableDoctor[]>, slot: string) {
  const free = slot ? (doctors.data ?? []) : [];
  const [chosen, setChosen] = useState<AvailableDoctor | null>(null);
  const doctorId = chosen && free.some((doctor) => doctor._id === chosen._id) ? chosen._id : '';
  const changing = doctors.isPlaceholderData;
  const choice: DentistChoiceProps = {
    doctors: free,
    value: doctorId,
    onChange: setChosen,
    disabled: changing,
    note:
      chosen && !doctorId && !changing && doctors.isSuccess
        ? `${chosen.name} is not free at this time: any available dentist will see you, or pick another time.`
        : undefined,
  };
  return { doctorId, choice };
}

/**
 * 'Dentist': 'Any available dentist' (the clinic picks one free for the slot) or one of the
 * doctors free for it, each with their photo. Native radio buttons: one tab stop, the arrow keys
 * move the choice.
 */
export function DentistChoice({ doctors, value, onChange, disabled, note }: DentistChoiceProps) {
  return (
    <fieldset className="flex flex-col gap-2" aria-busy={disabled || undefined}>
      <legend className="mb-1.5 text-sm font-medium">Dentist</legend>
      <label className={OPTION}>
        <input
          type="radio"
          name="dentist"
          value=""
          className="radio radio-sm radio-primary"
          checked={value === ''}
          onChange={() => onChange(null)}
        />
        <AnyIcon />
        <span className="font-medium">Any available dentist</span>
      </label>
      {doctors.map((doctor) => (
        <label key={doctor._id} className={OPTION}>
          <input
            type="radio"
            name="dentist"
            value={doctor._id}
            className="radio radio-sm radio-primary"
            checked={value === doctor._id}
            disabled={disabled}
            onChange={() => onChange(doctor)}
          />
          <UserAvatar name={doctor.name} image={doctor.image} />
          <span className="min-w-0 break-words font-medium">{doctor.name}</span>
        </label>
      ))}
      {note ? (
        <p className="text-sm text-muted" role="status">
          {note}
        </p>
      ) : null}
    </fieldset>
  );
}
