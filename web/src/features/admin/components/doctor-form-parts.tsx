import type { Service } from '@doctors-portal/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { FieldError, FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { Field, SelectField } from '../../../components/form-field';
import { QueryError } from '../../../components/query-state';
import { type DoctorHours, hoursErrors } from './doctor-hours-fields';
import { PHOTO_ACCEPT, PHOTO_UNREADABLE, PhotoPreview, photoProblem } from './doctor-photo';

interface SchemaIssue {
  path: PropertyKey[];
  code: string;
  message: string;
}

/**
 * The checks the add and edit doctor forms share: the first schema issue on each of `fields`,
 * the photo's problem, and a doctor who works on no day.
 */
export function doctorFormErrors<V extends DoctorHours>(
  issues: readonly SchemaIssue[],
  fields: readonly (keyof V & string)[],
  photoProblem: string | null,
  values: V,
): FieldErrors<V> {
  const errors: Record<string, FieldError> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (fields as readonly string[]).includes(field)) {
      errors[field] ??= { type: issue.code, message: issue.message };
    }
  }
  if (photoProblem) errors.photo = { type: 'validate', message: photoProblem };
  if (values.workDays.length === 0) {
    errors.workDays = { type: 'validate', message: hoursErrors.noWorkDay };
  }
  return errors as FieldErrors<V>;
}

/** The hours a checked form sends on. */
export function hoursOf({ alsoPerforms, workDays, daysOff }: DoctorHours): DoctorHours {
  return { alsoPerforms, workDays, daysOff };
}

export interface SpecialtyFieldProps {
  services: UseQueryResult<Service[]>;
  registration: UseFormRegisterReturn;
  disabled: boolean;
  error?: string;
  hint?: ReactNode;
  /** The option before the clinic's services. */
  first: ReactNode;
  className?: string;
}

/** 'Select Specialty' from the clinic's services, with a retry when they could not be loaded. */
export function SpecialtyField({
  services,
  registration,
  disabled,
  error,
  hint,
  first,
  className,
}: SpecialtyFieldProps) {
  return (
    <div className={className}>
      <SelectField
        label="Select Specialty"
        {...registration}
        disabled={disabled}
        error={error}
        hint={hint}
      >
        {first}
        {(services.data ?? []).map((service) => (
          <option key={service._id} value={service.name}>
            {service.name}
          </option>
        ))}
      </SelectField>
      {services.isError ? (
        <QueryError
          message={`The specialties could not be loaded. ${services.error.message}`}
          onRetry={() => void services.refetch()}
          retrying={services.isFetching}
          className="mt-3 flex flex-wrap items-center gap-3"
        />
      ) : null}
    </div>
  );
}

export interface PhotoFieldProps {
  file: File | undefined;
  /** The stored photo, when editing. */
  current?: { url: string; alt: string };
  label: string;
  hint: string;
  registration: UseFormRegisterReturn;
  error?: string;
}

/**
 * The photo's file input with its round preview beside it. A chosen file that is no photo is
 * said to be so at once, in the field's error, rather than on submit or as a broken preview.
 */
export function PhotoField({ file, current, label, hint, registration, error }: PhotoFieldProps) {
  const [unreadable, setUnreadable] = useState<File | null>(null);
  const problem = file
    ? (photoProblem(file) ?? (unreadable === file ? PHOTO_UNREADABLE : null))
    : null;
  return (
    <div className="flex flex-col gap-4 sm:col-span-2 sm:flex-row sm:items-start">
      <PhotoPreview
        file={problem ? undefined : file}
        current={current}
        onUnreadable={() => setUnreadable(file ?? null)}
      />
      <div className="min-w-0 flex-1">
        <Field
          label={label}
          type="file"
          accept={PHOTO_ACCEPT}
          {...registration}
          error={error ?? problem ?? undefined}
          hint={hint}
        />
      </div>
    </div>
  );
}
