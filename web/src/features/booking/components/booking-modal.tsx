import {
  type AvailableTreatment,
  type BookingFormInput,
  bookingFormSchema,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  messages,
} from '@doctors-portal/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'react-toastify/unstyled';
import type { z } from 'zod';
import { Field } from '../../../components/form-field';
import { Icon } from '../../../components/icon';
import { ModalDialog } from '../../../components/modal-dialog';
import { VerifyEmailNotice } from '../../../components/verify-email-notice';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import { BookingRefusedError, useCreateBooking } from '../api/create-booking';

export interface BookingModalProps {
  treatment: AvailableTreatment;
  /** The chosen day. */
  date: IsoDate;
  /** Closes the modal and clears the selection (after a submit, Escape or the close button). */
  onClose: () => void;
}

/** The toast for a failed booking: the spec's conflict, the taken slot, or the server's reason. */
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
 * validated with the shared schema. Any answer closes it (and the day's availability is read
 * again, see useCreateBooking).
 */
export default function BookingModal({ treatment, date, onClose }: BookingModalProps) {
  const { user } = useAuth();
  const booking = useCreateBooking();
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const titleId = `${ids}-title`;
  const slotId = `${ids}-slot`;
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<BookingFormInput, unknown, z.output<typeof bookingFormSchema>>({
    resolver: zodResolver(bookingFormSchema),
    defaultValues: { slot: '', phone: '', age: '' },
  });

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    // Start at the first field to fill in, the slot, rather than at the close button.
    element?.querySelector('select')?.focus();
    return () => element?.close();
  }, []);

  const close = () => {
    dialog.current?.close();
    onClose();
  };

  const submit = handleSubmit(async (form) => {
    if (!user) return;
    try {
      await booking.mutateAsync({
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
      toast.success(messages.bookingSet(formatMediumDate(date), form.slot));
    } catch (error) {
      toast.error(failureMessage(error));
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
          <Field
            label="Date"
            value={formatMediumDate(date)}
            readOnly
            className="input w-full bg-base-200"
          />
          <div className="flex flex-col gap-1.5">
            <label htmlFor={slotId} className="text-sm font-medium">
              Time slot
            </label>
            <select
              id={slotId}
              className={`select w-full ${slotError ? 'select-error' : ''}`}
              aria-invalid={slotError ? true : undefined}
              aria-describedby={slotError ? `${slotId}-error` : undefined}
              {...register('slot')}
            >
              <option value="" disabled>
                {messages.slotPlaceholder}
              </option>
              {treatment.slots.map((slot) => (
                <option key={slot} value={slot}>
                  {slot}
                </option>
              ))}
            </select>
            {slotError && (
              <p id={`${slotId}-error`} className="text-sm text-error" role="alert">
                {slotError}
              </p>
            )}
          </div>
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
          <Field
            label="Phone number"
            type="text"
            inputMode="tel"
            autoComplete="tel"
            placeholder={messages.phonePlaceholder}
            {...register('phone')}
            error={errors.phone?.message}
          />
          <Field
            label="Age"
            type="number"
            inputMode="numeric"
            min={0}
            max={120}
            step={1}
            placeholder={messages.agePlaceholder}
            {...register('age')}
            error={errors.age?.message}
          />
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
