import { formatMediumDate, type IsoDate, parseIsoDate } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type Ref, useState } from 'react';
import { availabilityQuery, monthAvailabilityQuery } from '../api/availability';
import { unbookableReason } from '../api/day-status';
import { ErrorAlert } from './error-alert';
import { Field, SelectField } from './form-field';

export interface MoveFieldsProps {
  /**
   * The booking being moved: its treatment's free times are offered (its name said on a day
   * without any), its own time is not on its own day.
   */
  booking: { treatmentId: string; treatment: string; date: IsoDate; slot: string };
  /** The day picked; nothing is shown before there is one. */
  date: IsoDate | null;
  slot: string;
  onSlot: (slot: string) => void;
}

/**
 * The day and time a move has picked, and the `fields` that pick them (`MoveFields`);
 * `onDayChange` runs as another day is picked, e.g. to clear why the last try was refused.
 */
export function useMove(firstDay: IsoDate | null, onDayChange: () => void) {
  const [date, setDate] = useState(firstDay);
  const [slot, setSlot] = useState('');
  return {
    date,
    slot,
    /** Starts again on `day`, with no time picked. */
    restart: (day: IsoDate) => {
      setDate(day);
      setSlot('');
    },
    fields: {
      date,
      onDate: (day: IsoDate | null) => {
        setDate(day);
        onDayChange();
      },
      slot,
      onSlot: setSlot,
    },
  };
}

/**
 * A move's 'New date' (today onwards) and 'Time' fields: a new day clears the time picked, and
 * offers that day's free times of the treatment.
 */
export function MoveFields({
  today,
  onDate,
  dateRef,
  ...time
}: MoveFieldsProps & {
  /** The earliest day that may be picked. */
  today: IsoDate;
  onDate: (date: IsoDate | null) => void;
  /** The date field, for a dialog that focuses it as it opens. */
  dateRef?: Ref<HTMLInputElement>;
}) {
  return (
    <>
      <Field
        ref={dateRef}
        label="New date"
        name="date"
        type="date"
        min={today}
        required
        value={time.date ?? ''}
        onChange={(event) => {
          onDate(parseIsoDate(event.target.value));
          time.onSlot('');
        }}
      />
      <FreeTimeField {...time} />
    </>
  );
}

/**
 * The 'Time' field of a move: the day's free times of one treatment (GET /api/available), or
 * while they load, why they could not be read, or that the day has none, and why when the
 * month's calendar says (closed, past, beyond the booking horizon).
 */
function FreeTimeField({ booking, date, slot, onSlot }: MoveFieldsProps) {
  const availability = useQuery(availabilityQuery(date));
  const month = useQuery(monthAvailabilityQuery(date ? date.slice(0, 7) : null));
  if (!date) return null;
  if (availability.isPending) return <p className="text-sm text-muted">Loading free times…</p>;
  if (availability.isError) {
    return (
      <ErrorAlert>{`The free times could not be loaded. ${availability.error.message}`}</ErrorAlert>
    );
  }
  const offered =
    availability.data
      .find((available) => available._id === booking.treatmentId)
      ?.slots.filter((free) => !(date === booking.date && free === booking.slot)) ?? [];
  if (offered.length === 0) {
    const why = unbookableReason(month.data?.days.find((day) => day.date === date));
    return (
      <p className="text-sm text-muted">
        {why ??
          `No free time for ${booking.treatment} on ${formatMediumDate(date)}. Please pick another day.`}
      </p>
    );
  }
  return (
    <SelectField
      label="Time"
      name="slot"
      value={slot}
      required
      onChange={(event) => onSlot(event.target.value)}
    >
      <option value="">Pick a time</option>
      {offered.map((free) => (
        <option key={free} value={free}>
          {free}
        </option>
      ))}
    </SelectField>
  );
}
