import {
  type AvailableTreatment,
  type Booking,
  type BookingFormInput,
  bookingFormSchema,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  messages,
} from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { Field, NumberField, SelectField } from '../../../components/form-field';
import { Icon } from '../../../components/icon';
import { ModalDialog } from '../../../components/modal-dialog';
import { VerifyEmailNotice } from '../../../components/verify-email-notice';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { BookingRefusedError, useCreateBooking } from '../api/create-booking';
import { availableDoctorsQuery } from '../api/get-available-doctors';
import { DentistChoice, useDentistChoice } from './dentist-choice';

export interface BookingModalProps {
  treatment: AvailableTreatment;
  /** The chosen day. */
  date: IsoDate;
  /** Closes the modal and clears the selection (after a submit, Escape or the close button). */
  onClose: () => void;
  /** The cancellation policy's sentence, once the page knows it. */
  policy?: string | null;
  /** The slot picked already (a time chip, a waitlist mail's link); the patient may change it. */
  initialSlot?: string | undefined;
  /** The booking was made: the page shows what comes next (components/booking-confirmation). */
  onBooked?: (booking: Booking) => void;
}

/** The toast for a failed booking: the spec's conflict, the taken slot, or the server's reason. */
/** Two fields in a row from tablet width, one above the other on a phone. */
const PAIR = 'grid items-start gap-4 sm:grid-cols-2';

function failureMessage(error: unknown): string {
  if (error instanceof BookingRefusedError) {
    const { reason, booking, message } = error.refusal;
    if (reason === 'patient' && booking) {
      return messages.bookingConflict(formatMediumDate(booking.date), booking.slot);
    }
    if (reason === 'slot') return message || messages.slotTaken;
    return message;
  }
  if (error instanceof ApiError) return error.message;
  return 'The booking could not be made. Please try again.';
}

/** The follow-up line naming the booking's doctor: 'With Dr. Ana Ruiz.' */
export function withDoctor(name: string): string {
  return `With ${/^dr\.?\s/i.test(name) ? name : `Dr. ${name}`}.`;
}

function CloseIcon() {
  return (
    <Icon className="size-5">
      <path d="M6 6l12 12M18 6L6 18" />
    </Icon>
  );
}

/**
 * The booking modal (spec section 2), on the native <dialog>: labelled by the treatment's name,
 * focus kept inside, Escape closes. Name, email and date are read-only; slot, phone and age are
 * validated with the shared schema. Below the slot, when doctors perform the treatment, the
 * patient picks 'Any available dentist' or one of those free for the slot (`doctorId` is sent
 * only then); the success toast names the doctor booked, if any. Any answer closes it (and the day's availability is read
 * again, see useCreateBooking).
 */
export default function BookingModal({
  treatment,
  date,
  onClose,
  policy,
  initialSlot = '',
  onBooked,
}: BookingModalProps) {
  const { user } = useAuth();
  const booking = useCreateBooking();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<BookingFormInput, unknown, z.output<typeof bookingFormSchema>>({
    resolver: zodResolver(bookingFormSchema),
    // The profile's phone and age, saved by a first booking or on the account page.
    defaultValues: { slot: '', phone: user?.phone ?? '', age: user?.age ?? '' },
  });

  // The doctors free for the chosen slot, asked again whenever the slot changes.
  const slot = useWatch({ control, name: 'slot' }) ?? '';
  const doctors = useQuery({
    ...availableDoctorsQuery(treatment._id, date, slot),
    placeholderData: keepPreviousData,
  });
  const dentist = useDentistChoice(doctors, slot);
  const { doctorId } = dentist;

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Start at the first field to fill in, the slot, rather than at the close button.
    element?.querySelector('select')?.focus();
    return () => element?.close();
  }, []);

  // A waitlist mail's slot is picked once the list is mounted: as a default value it was not shown.
  useEffect(() => {
    if (initialSlot) setValue('slot', initialSlot);
  }, [initialSlot, setValue]);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  const submit = handleSubmit(async (form) => {
    if (!user) return;
    try {
      const made = await booking.mutateAsync({
        ...(doctorId ? { doctorId } : {}),
        treatmentId: treatment._id,
        treatment: treatment.name,
        date,
        slot: form.slot,
        price: treatment.price,
        patientMail: user.email,
        patientName: user.name,
        phone: form.phone,
        age: form.age,
      });
      onBooked?.(made);
      const set = messages.bookingSet(formatMediumDate(date), form.slot);
      toast.success(
        made.doctor ? (
          <div>
            <p>{set}</p>
            <p className="mt-1">{withDoctor(made.doctor.name)}</p>
          </div>
        ) : (
          set
        ),
      );
    } catch (error) {
      // An ended session is said once, by the app (lib/query-client.ts).
      if (!(error instanceof SessionEndedError)) toast.error(failureMessage(error));
    } finally {
      close();
    }
  });

  const slotError = errors.slot?.message;
  // Booking needs a verified address (the server refuses otherwise): say so before the form.
  const unverified = user !== null && !user.emailVerified;

  return (
    <ModalDialog
      ref={dialog}
      titleId={titleId}
      onDismiss={() => {
        if (!isSubmitting) close();
      }}
    >
      <div className="modal-box max-h-[92dvh] p-6 sm:max-w-lg sm:p-8">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="heading-3 text-2xl text-neutral">
              {treatment.name}
            </h2>
            <p className="mt-1 text-sm text-muted">
              {formatDollars(treatment.price)} · pay online before your visit
            </p>
          </div>
          <button
            type="button"
            className="btn btn-ghost btn-sm btn-square -mr-2 -mt-1"
            aria-label="Close"
            onClick={close}
            disabled={isSubmitting}
          >
            <CloseIcon />
          </button>
        </div>

        {unverified && (
          <div className="mt-4">
            <VerifyEmailNotice before="booking" />
          </div>
        )}
        <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-4">
          {/* Short fields side by side from tablet width, so that Submit shows without
              scrolling on a 1280×720 screen. */}
          <div className={PAIR}>
            <Field
              label="Date"
              value={formatMediumDate(date)}
              readOnly
              className="input w-full bg-base-200"
            />
            <SelectField label="Time slot" error={slotError} {...register('slot')}>
              <option value="" disabled>
                {messages.slotPlaceholder}
              </option>
              {treatment.slots.map((slot) => (
                <option key={slot} value={slot}>
                  {slot}
                </option>
              ))}
            </SelectField>
          </div>
          {dentist.choice.doctors.length > 0 ? <DentistChoice {...dentist.choice} /> : null}
          <Field
            label="Full name"
            value={user?.name ?? ''}
            readOnly
            autoComplete="name"
            className="input w-full bg-base-200"
          />
          <Field
            label="Email"
            type="email"
            value={user?.email ?? ''}
            readOnly
            autoComplete="email"
            className="input w-full bg-base-200"
          />
          <div className={PAIR}>
            <Field
              label="Phone number"
              type="text"
              inputMode="tel"
              autoComplete="tel"
              placeholder={messages.phonePlaceholder}
              {...register('phone')}
              error={errors.phone?.message}
            />
            <NumberField
              label="Age"
              min={0}
              max={120}
              placeholder={messages.agePlaceholder}
              {...register('age')}
              error={errors.age?.message}
            />
          </div>
          {policy && <p className="text-sm text-muted">{policy}</p>}
          <button
            type="submit"
            className="btn btn-primary mt-2 w-full"
            disabled={isSubmitting || unverified}
          >
            {isSubmitting ? (
              <>
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                Booking…
              </>
            ) : (
              'Submit'
            )}
          </button>
        </form>
      </div>
    </ModalDialog>
  );
}
