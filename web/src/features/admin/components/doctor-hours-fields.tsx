import {
  EVERY_DAY,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
  type Service,
  WEEKDAY_NAMES,
} from '@doctors-portal/contract';
import { type Ref, useId, useState } from 'react';
import { type Control, Controller, type FieldErrors, type Path, useWatch } from 'react-hook-form';
import { FieldError } from '../../../components/form-field';

/** What a doctor performs beyond the specialty, the weekdays they work, and their dates off. */
export interface DoctorHours {
  /** The treatments besides the specialty's, by id. */
  alsoPerforms: string[];
  /** 0 = Sunday … 6 = Saturday, in order. */
  workDays: number[];
  /** 'YYYY-MM-DD', in order. */
  daysOff: IsoDate[];
}

/** A new doctor works every day, performs only the specialty and has no dates off. */
export const DEFAULT_HOURS: DoctorHours = {
  alsoPerforms: [],
  workDays: [...EVERY_DAY],
  daysOff: [],
};

export const hoursErrors = {
  noWorkDay: 'Choose at least one work day.',
  noDate: 'Pick a date to add.',
  repeatedDate: (date: string) => `${date} is already a day off.`,
} as const;

/** The treatment ids to send: the extras that are not the specialty's own treatment. */
export function extraTreatmentIds(
  hours: Pick<DoctorHours, 'alsoPerforms'>,
  specialty: string,
  services: Service[],
): string[] {
  const own = services.find((service) => service.name === specialty)?._id;
  const offered = new Set(services.map((service) => service._id));
  return hours.alsoPerforms.filter((id) => id !== own && offered.has(id));
}

const CHOICE = 'flex min-h-6 cursor-pointer items-center gap-2 text-sm';

/** `list` with `item` added or taken out, as its checkbox now says. */
const toggled = <T,>(list: T[], item: T, checked: boolean): T[] =>
  checked ? [...list, item] : list.filter((other) => other !== item);

/**
 * 'Also performs': a checkbox per service other than the chosen specialty (the specialty's
 * treatment is always performed).
 */
export function AlsoPerformsField({
  services,
  specialty,
  value,
  onChange,
  disabled,
}: {
  services: Service[];
  specialty: string;
  value: string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}) {
  const hintId = useId();
  const others = services.filter((service) => service.name !== specialty);
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={hintId} disabled={disabled}>
      <legend className="mb-1 text-sm font-medium">Also performs</legend>
      <p id={hintId} className="text-sm text-muted">
        {others.length === 0
          ? 'The clinic offers no other services.'
          : 'Optional: the other treatments this doctor can be booked for. The specialty is always one of them.'}
      </p>
      <div className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
        {others.map((service) => (
          <label key={service._id} className={CHOICE}>
            <input
              type="checkbox"
              className="checkbox checkbox-sm checkbox-primary"
              checked={value.includes(service._id)}
              onChange={(event) => onChange(toggled(value, service._id, event.target.checked))}
            />
            {service.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** 'Works on': a checkbox per weekday, Sunday first as the booking calendar shows them. */
export function WorksOnField({
  value,
  onChange,
  error,
  firstRef,
  disabled,
}: {
  value: number[];
  onChange: (days: number[]) => void;
  error?: string;
  /** The first checkbox, to take the focus when no day is chosen. */
  firstRef?: Ref<HTMLInputElement>;
  disabled?: boolean;
}) {
  const errorId = useId();
  return (
    <fieldset
      className="flex flex-col gap-2"
      aria-describedby={error ? errorId : undefined}
      disabled={disabled}
    >
      <legend className="mb-1 text-sm font-medium">Works on</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {WEEKDAY_NAMES.map((name, day) => (
          <label key={name} className={CHOICE}>
            <input
              ref={day === 0 ? firstRef : undefined}
              type="checkbox"
              className={`checkbox checkbox-sm checkbox-primary ${error ? 'checkbox-error' : ''}`}
              checked={value.includes(day)}
              aria-invalid={error ? true : undefined}
              onChange={(event) =>
                onChange(toggled(value, day, event.target.checked).sort((a, b) => a - b))
              }
            />
            {name}
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}

/** 'Days off': dates added one at a time (holidays, leave), each with a Remove button. */
export function DaysOffField({
  value,
  onChange,
  disabled,
}: {
  value: IsoDate[];
  onChange: (dates: IsoDate[]) => void;
  disabled?: boolean;
}) {
  const inputId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);

  const add = () => {
    const date = parseIsoDate(draft);
    if (!date) {
      setError(hoursErrors.noDate);
      return;
    }
    if (value.includes(date)) {
      setError(hoursErrors.repeatedDate(formatMediumDate(date)));
      return;
    }
    setError(null);
    onChange([...value, date].sort());
    setDraft('');
  };

  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium">Days off</legend>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-0 flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm">
            Date off
          </label>
          <input
            id={inputId}
            type="date"
            className={`input w-44 ${error ? 'input-error' : ''}`}
            value={draft}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              // Enter adds the date rather than submitting the whole form.
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
        </div>
        <button type="button" className="btn btn-outline btn-primary" onClick={add}>
          Add day off
        </button>
      </div>
      <FieldError id={errorId} error={error} />
      {value.length === 0 ? (
        <p className="text-sm text-muted">No days off.</p>
      ) : (
        <ul className="flex flex-wrap gap-2" aria-label="Days off">
          {value.map((date) => {
            const shown = formatMediumDate(date);
            return (
              <li
                key={date}
                className="flex items-center gap-1 rounded-full border border-base-300 bg-base-200/60 py-0.5 pl-3 pr-1 text-sm"
              >
                {shown}
                <button
                  type="button"
                  className="btn btn-ghost btn-xs btn-circle min-h-6 min-w-6"
                  aria-label={`Remove ${shown}`}
                  title={`Remove ${shown}`}
                  onClick={() => onChange(value.filter((other) => other !== date))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

export interface DoctorHoursControlsProps<T extends DoctorHours & { specialty: string }, O> {
  control: Control<T, unknown, O>;
  services: Service[];
  errors: FieldErrors<DoctorHours>;
}

/**
 * 'Also performs', 'Works on' and 'Days off', each a full-width row of a doctor's form. The
 * form's chosen specialty is followed: its own treatment is not offered as an extra.
 */
export function DoctorHoursControls<T extends DoctorHours & { specialty: string }, O>({
  control,
  services,
  errors,
}: DoctorHoursControlsProps<T, O>) {
  const specialty = useWatch({ control, name: 'specialty' as Path<T> }) as string;
  return (
    <>
      <div className="sm:col-span-2">
        <Controller
          control={control}
          name={'alsoPerforms' as Path<T>}
          render={({ field }) => (
            <AlsoPerformsField
              services={services}
              specialty={specialty}
              value={field.value as string[]}
              onChange={field.onChange}
            />
          )}
        />
      </div>
      <div className="sm:col-span-2">
        <Controller
          control={control}
          name={'workDays' as Path<T>}
          render={({ field }) => (
            <WorksOnField
              value={field.value as number[]}
              onChange={field.onChange}
              firstRef={field.ref}
              error={errors.workDays?.message}
            />
          )}
        />
      </div>
      <div className="sm:col-span-2">
        <Controller
          control={control}
          name={'daysOff' as Path<T>}
          render={({ field }) => (
            <DaysOffField value={field.value as IsoDate[]} onChange={field.onChange} />
          )}
        />
        <FieldError className="mt-1" error={errors.daysOff?.message} />
      </div>
    </>
  );
}
