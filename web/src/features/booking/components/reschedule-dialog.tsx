import { type Booking, formatMediumDate, type IsoDate } from '@doctors-portal/contract';
import { type FormEvent, useRef } from 'react';
import { ModalFormDialog, useModalForm } from '../../../components/modal-form-dialog';
import { MoveFields, useMove } from '../../../components/move-fields';
import { PhoneLink } from '../../../components/phone-link';

export interface RescheduleDialogProps {
  /** The booking to move; the dialog is open while there is one. */
  booking: Booking | null;
  /** The earliest day that may be picked (today). */
  today: IsoDate;
  /** Moves the booking; resolves once it has moved, or to the reason it was refused. */
  onConfirm: (move: { date: IsoDate; slot: string }) => Promise<string | null>;
  onClose: () => void;
  /** The clinic's phone: whom to call to cancel a visit past the cancellation notice. */
  clinicPhone?: string | undefined;
}

/**
 * Moves a booking to another day or slot of the same treatment, on the native <dialog>: a date
 * field (today onwards), then that day's free slots of the booking's treatment (GET
 * /api/available; the booking's own slot is not offered on its own day). The refusal of a move
 * (the slot just taken, the minimum notice, …) is shown in it; Escape or 'Keep it' closes it.
 */
export function RescheduleDialog({
  booking,
  today,
  onConfirm,
  onClose,
  clinicPhone,
}: RescheduleDialogProps) {
  const dateField = useRef<HTMLInputElement>(null);
  const form = useModalForm(booking, () => {
    if (booking) move.restart(booking.date >= today ? booking.date : today);
    dateField.current?.focus();
  });
  const move = useMove(null, () => form.setFailure(null));
  const { date, slot } = move;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.dialog.sending || !date) return;
    if (!slot) {
      form.setFailure('Please pick a time.');
      return;
    }
    await form.send(() => onConfirm({ date, slot }));
  };

  const what = booking
    ? `${booking.treatment} on ${formatMediumDate(booking.date)} at ${booking.slot}`
    : '';

  return (
    <ModalFormDialog
      {...form.dialog}
      title={`Reschedule ${what}`}
      onClose={onClose}
      onSubmit={submit}
      keepLabel="Keep it"
      submitLabel="Move appointment"
      submitClassName="btn-primary"
      submitDisabled={!slot}
    >
      {booking && (
        <MoveFields booking={booking} today={today} {...move.fields} dateRef={dateField} />
      )}
      {booking && !booking.cancellable ? (
        // Inside the clinic's cancellation notice, a move does not make the visit cancellable.
        <p className="text-sm text-muted">
          You can move this visit, but it can no longer be cancelled online: to cancel it, please
          call the clinic
          {clinicPhone ? (
            <>
              {' '}
              on <PhoneLink phone={clinicPhone} className="link" />
            </>
          ) : null}
          .
        </p>
      ) : null}
    </ModalFormDialog>
  );
}
