import {
  CANCEL_REASON_MAX,
  clinicCancelRequestSchema,
  formatDollars,
  formatMediumDate,
  type ScheduleEntry,
} from '@doctors-portal/contract';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ModalFormDialog, useModalForm } from '../../../components/modal-form-dialog';

export interface CancelDialogProps {
  /** The booking to cancel; the dialog is open while there is one. */
  booking: ScheduleEntry | null;
  /** Sends the cancellation; resolves once it is done, or to the reason it failed. */
  onConfirm: (reason: string) => Promise<string | null>;
  onClose: () => void;
}

/**
 * The clinic's cancellation of a booking, on the native <dialog>: it asks for the reason the
 * patient will read (required, at most 500 characters), says what happens (the slot is freed,
 * the patient mailed, a paid booking refunded in full) and asks to confirm. Focus stays inside
 * while it is open, Escape or 'Keep booking' closes it, and the failure of a cancellation (a
 * refund the payment provider refused) is shown in it.
 */
export function CancelDialog({ booking, onConfirm, onClose }: CancelDialogProps) {
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const reasonId = useId();
  const hintId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const form = useModalForm(booking, () => {
    setReason('');
    setInvalid(null);
    reasonField.current?.focus();
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.dialog.sending) return;
    const parsed = clinicCancelRequestSchema.safeParse({ reason });
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Please give a reason for the cancellation.');
      reasonField.current?.focus();
      return;
    }
    setInvalid(null);
    await form.send(() => onConfirm(parsed.data.reason));
  };

  const what = booking
    ? `${booking.patientName}’s ${booking.treatment} on ${formatMediumDate(booking.date)} at ${booking.slot}`
    : '';
  const refundNote =
    booking?.paid && !booking.refund
      ? ` Their payment of ${formatDollars(booking.price)} is refunded in full to their card.`
      : '';

  return (
    <ModalFormDialog
      {...form.dialog}
      title={`Cancel ${what}?`}
      onClose={onClose}
      onSubmit={submit}
      keepLabel="Keep booking"
      submitLabel="Cancel booking"
      submitClassName="btn-error"
    >
      <p id={hintId} className="text-sm text-muted">
        {`The slot is freed at once and the patient is emailed your reason with a calendar update.${refundNote}`}
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={reasonId} className="font-medium text-neutral">
          Reason for the patient
        </label>
        <textarea
          ref={reasonField}
          id={reasonId}
          name="reason"
          className={`textarea w-full ${invalid ? 'textarea-error' : ''}`}
          rows={3}
          maxLength={CANCEL_REASON_MAX}
          required
          aria-invalid={invalid ? true : undefined}
          aria-describedby={`${hintId}${invalid ? ` ${errorId}` : ''}`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <div className="flex justify-between gap-3 text-xs">
          <span id={errorId} className="text-error">
            {invalid}
          </span>
          <span className="text-muted">{`${reason.length} / ${CANCEL_REASON_MAX}`}</span>
        </div>
      </div>
    </ModalFormDialog>
  );
}
