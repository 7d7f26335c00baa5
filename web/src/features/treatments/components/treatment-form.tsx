import {
  formatMediumDate,
  type HeldSlot,
  type IsoDate,
  OPENING_HOURS,
  paths,
  type Treatment,
} from '@doctors-portal/contract';
import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { Field, NumberField, TextAreaField } from '../../../components/form-field';
import { FormActions, Panel } from '../../../components/panel';
import { ApiError, reasonOf, SessionEndedError } from '../../../lib/api-client';
import { heldSlotsOf, useChangeTreatment } from '../api/change-treatment';
import { useCreateTreatment } from '../api/create-treatment';
import {
  addGeneratedSlots,
  changesOf,
  EMPTY_TREATMENT_FORM,
  formValuesOf,
  readTreatmentForm,
  slotsOutsideHours,
  type TreatmentFormErrors,
  type TreatmentFormValues,
} from '../treatment-form';

/** The bookings that hold slot times the change would remove, each linked to its day's schedule. */
function HeldBookings({ bookings }: { bookings: HeldSlot[] }) {
  return (
    <div role="alert" className="alert alert-error alert-soft flex flex-col items-start gap-2">
      <p className="font-semibold">
        These bookings hold slot times this change removes. Keep those slot times, or cancel the
        bookings from the schedule first:
      </p>
      <ul className="list-disc pl-5">
        {bookings.map((booking) => (
          <li key={booking._id}>
            <Link
              className="link"
              to={`${paths.schedule}?date=${booking.date}`}
            >{`${formatMediumDate(booking.date as IsoDate)}, ${booking.slot}`}</Link>
            {`: ${booking.patientName}`}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The slot generator: consecutive slots of a length from a start until an end, added to the
 * slot times listed (which can then be edited).
 */
function SlotGenerator({
  onGenerate,
}: {
  onGenerate: (start: string, end: string, length: string) => string | null;
}) {
  // Within the opening hours the portal states (OPENING_HOURS: 10:00 AM to 10:00 PM).
  const [start, setStart] = useState('10:00');
  const [end, setEnd] = useState('18:00');
  const [length, setLength] = useState('30');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  return (
    <fieldset className="rounded-box border border-base-300 p-4">
      <legend className="px-1 text-sm font-medium">Generate slot times</legend>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="From"
          type="time"
          value={start}
          onChange={(event) => setStart(event.target.value)}
        />
        <Field
          label="To"
          type="time"
          value={end}
          onChange={(event) => setEnd(event.target.value)}
        />
        <NumberField
          label="Length (minutes)"
          min={5}
          max={480}
          step={5}
          value={length}
          onChange={(event) => setLength(event.target.value)}
        />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button
          type="button"
          className="btn btn-outline btn-primary btn-sm"
          aria-describedby={error ? errorId : undefined}
          onClick={() => setError(onGenerate(start, end, length))}
        >
          Add slots
        </button>
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-error">
            {error}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** Which slot times fall outside the stated opening hours, each kept on one line. */
function OutsideHoursNote({ slots }: { slots: string[] }) {
  const one = slots.length === 1;
  return (
    <p role="status" className="rounded-box border border-warning bg-warning/15 px-3 py-2 text-sm">
      {`${one ? '1 slot time is' : `${slots.length} slot times are`} outside the opening hours the portal shows (${OPENING_HOURS}): `}
      {slots.map((slot, index) => (
        <Fragment key={slot}>
          {index > 0 ? ', ' : null}
          <span className="whitespace-nowrap">{slot}</span>
        </Fragment>
      ))}
      {`. Patients can still book ${one ? 'it' : 'them'}.`}
    </p>
  );
}

export interface TreatmentFormProps {
  /** The treatment to edit; null to add one. */
  treatment: Treatment | null;
  /** After it was saved, or the person cancelled. */
  onClose: () => void;
}

/**
 * Adds a treatment or edits one: name, description, price in dollars and slot times (one a line,
 * or generated from a start, an end and a length). Errors show beside their fields; a change
 * that removes slot times future bookings hold lists those bookings.
 */
export function TreatmentForm({ treatment, onClose }: TreatmentFormProps) {
  const create = useCreateTreatment();
  const change = useChangeTreatment();
  const nameInput = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState<TreatmentFormValues>(
    treatment ? formValuesOf(treatment) : EMPTY_TREATMENT_FORM,
  );
  const [errors, setErrors] = useState<TreatmentFormErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [held, setHeld] = useState<HeldSlot[] | null>(null);
  const saving = create.isPending || change.isPending;
  const outsideHours = slotsOutsideHours(values.slots);

  useEffect(() => {
    nameInput.current?.focus();
  }, []);

  const update = (field: keyof TreatmentFormValues, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) {
      const read = readTreatmentForm(next);
      setErrors('errors' in read ? read.errors : {});
    }
  };

  const showFailure = (error: unknown) => {
    if (error instanceof SessionEndedError) return;
    const slotsHeld = heldSlotsOf(error);
    if (slotsHeld) {
      setHeld(slotsHeld);
      setErrors({ slots: error instanceof Error ? error.message : undefined });
      toast.error('Some slot times are still booked: see the bookings listed.');
      return;
    }
    if (error instanceof ApiError && error.status === 409) {
      setErrors({ name: error.message });
      toast.error(error.message);
      return;
    }
    if (error instanceof ApiError && error.status === 400) {
      const issues = (error.body as { issues?: Array<{ field: string; message: string }> })?.issues;
      const fields: TreatmentFormErrors = {};
      for (const issue of issues ?? []) {
        const field = issue.field.split('.')[0];
        if (field === 'name' || field === 'description' || field === 'price' || field === 'slots') {
          fields[field] ??= issue.message;
        }
      }
      setErrors(fields);
    }
    toast.error(reasonOf(error, 'The treatment could not be saved. Please try again.'));
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    setHeld(null);
    const read = readTreatmentForm(values);
    if ('errors' in read) {
      setErrors(read.errors);
      return;
    }
    setErrors({});
    setValues((current) => ({ ...current, slots: read.treatment.slots.join('\n') }));
    try {
      if (treatment) {
        const changed = changesOf(treatment, read.treatment);
        if (Object.keys(changed).length === 0) {
          toast.info(`Nothing to save: ${treatment.name} is unchanged.`);
          onClose();
          return;
        }
        const saved = await change.mutateAsync({ id: treatment._id, change: changed });
        toast.success(`Saved ${saved.name}.`);
      } else {
        const created = await create.mutateAsync(read.treatment);
        toast.success(`Added ${created.name}: patients can book it now.`);
      }
      onClose();
    } catch (error) {
      showFailure(error);
    }
  };

  return (
    <Panel title={treatment ? `Edit ${treatment.name}` : 'Add a treatment'}>
      <form onSubmit={submit} noValidate className="mt-4 flex flex-col gap-5">
        <fieldset disabled={saving} className="flex flex-col gap-5">
          <legend className="sr-only">{treatment ? treatment.name : 'The new treatment'}</legend>
          <div className="grid gap-5 sm:grid-cols-[2fr_1fr]">
            <Field
              ref={nameInput}
              label="Name"
              autoComplete="off"
              value={values.name}
              onChange={(event) => update('name', event.target.value)}
              error={errors.name}
            />
            <Field
              label="Price (USD)"
              inputMode="decimal"
              autoComplete="off"
              value={values.price}
              onChange={(event) => update('price', event.target.value)}
              error={errors.price}
              hint="In dollars, such as 80 or 89.50."
            />
          </div>
          <TextAreaField
            label="Description"
            rows={2}
            value={values.description}
            onChange={(event) => update('description', event.target.value)}
            error={errors.description}
          />
          <TextAreaField
            label="Slot times"
            rows={Math.min(14, Math.max(6, values.slots.split('\n').length + 1))}
            spellCheck={false}
            value={values.slots}
            onChange={(event) => update('slots', event.target.value)}
            error={errors.slots}
            hint="One a line, such as 10:00 AM - 10:30 AM. They are put in order when saved."
          />
          {outsideHours.length > 0 ? <OutsideHoursNote slots={outsideHours} /> : null}
          <SlotGenerator
            onGenerate={(start, end, length) => {
              const generated = addGeneratedSlots(values.slots, start, end, length);
              if ('error' in generated) return generated.error;
              update('slots', generated.slots);
              return null;
            }}
          />
        </fieldset>
        {held ? <HeldBookings bookings={held} /> : null}
        <FormActions
          busy={saving}
          onCancel={onClose}
          submitLabel={treatment ? 'Save changes' : 'Add treatment'}
        />
      </form>
    </Panel>
  );
}
