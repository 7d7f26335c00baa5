import {
  type Booking,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { ModalFormDialog } from '../../../components/modal-form-dialog';
import { availabilityQuery } from '../api/get-availability';

export interface RescheduleDialogProps {
  /** The booking to move; the dialog is open while there is one. */
  booking: Booking | null;
  /** The earliest day that may be picked (today). */
  today: IsoDate;
  /** Moves the booking; resolves once it has moved, or to the reason it was refused. */
  onConfirm: (move: { date: IsoDate; slot: string }) => Promise<string | null>;
  onClose: () => void;
}

/**
 * Moves a booking to another day or slot of the same treatment, on the native <dialog>: a date
 * field (today onwards), then that day's free slots of the booking's treatment (GET
 * /api/available; the booking's own slot is not offered on its own day). The refusal of a move
 * (the slot just taken, the minimum notice, …) is shown in it; Escape or 'Keep it' closes it.
 */
export function RescheduleDialog({ booking, today, onConfirm, onClose }: RescheduleDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const dateField = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const dateId = useId();
  const slotId = useId();
  const [date, setDate] = useState<IsoDate | null>(null);
  const [slot, setSlot] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (booking && !element.open) {
      setDate(booking.date >= today ? booking.date : today);
      setSlot('');
      setFailure(null);
      element.showModal();
      dateField.current?.focus();
    } else if (!booking && element.open) {
      element.close();
    }
  }, [booking, today]);

  const availability = useQuery({ ...availabilityQuery(booking ? date : null) });
  const offered =
    availability.data
      ?.find((treatment) => treatment._id === booking?.treatmentId)
      ?.slots.filter((free) => !(date === booking?.date && free === booking?.slot)) ?? [];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || !date) return;
    if (!slot) {
      setFailure('Please pick a time.');
      return;
    }
    setFailure(null);
    setSending(true);
    const failed = await onConfirm({ date, slot });
    setSending(false);
    if (failed) setFailure(failed);
  };

  const what = booking
    ? `${booking.treatment} on ${formatMediumDate(booking.date)} at ${booking.slot}`
    : '';

  let slots: React.ReactNode;
  if (!date) slots = null;
  else if (availability.isPending)
    slots = <p className="text-sm text-muted">Loading free times…</p>;
  else if (availability.isError) {
    slots = (
      <ErrorAlert>{`The free times could not be loaded. ${availability.error.message}`}</ErrorAlert>
    );
  } else if (offered.length === 0) {
    slots = (
      <p className="text-sm text-muted">{`No free time for ${booking?.treatment} on ${formatMediumDate(date)}. Please pick another day.`}</p>
    );
  } else {
    slots = (
      <div className="flex flex-col gap-1.5">
        <label htmlFor={slotId} className="font-medium text-neutral">
          Time
        </label>
        <select
          id={slotId}
          name="slot"
          className="select w-full"
          value={slot}
          required
          onChange={(event) => setSlot(event.target.value)}
        >
          <option value="">Pick a time</option>
          {offered.map((free) => (
            <option key={free} value={free}>
              {free}
            </option>
          ))}
        </select>
      </div>
    );
  }

  return (
    <ModalFormDialog
      ref={dialog}
      titleId={titleId}
      title={`Reschedule ${what}`}
      open={booking !== null}
      sending={sending}
      onClose={onClose}
      onSubmit={submit}
      failure={failure}
      keepLabel="Keep it"
      submitLabel="Move appointment"
      submitClassName="btn-primary"
      submitDisabled={!slot}
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={dateId} className="font-medium text-neutral">
          New date
        </label>
        <input
          ref={dateField}
          id={dateId}
          name="date"
          type="date"
          className="input w-full"
          min={today}
          required
          value={date ?? ''}
          onChange={(event) => {
            setDate(parseIsoDate(event.target.value));
            setSlot('');
            setFailure(null);
          }}
        />
      </div>
      {slots}
    </ModalFormDialog>
  );
}
