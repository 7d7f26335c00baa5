import 'react-day-picker/style.css';
import './booking-calendar.css';
import type { AvailableDay, IsoDate } from '@doctors-portal/contract';
import { useMemo } from 'react';
import { DayPicker, type Labels } from 'react-day-picker';
import { isoToLocalDate, localDateToIso } from '../dates';
import { dayStatuses } from '../day-statuses';

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long' });

/**
 * Day buttons are named "5 January 2030, Saturday": the name starts with the number the button
 * shows, so speech input ("click 5") works and axe's label-content-name-mismatch rule passes.
 */
const labelsFor = (noteOf: (date: Date) => string): Partial<Labels> => ({
  labelDayButton: (date, modifiers) => {
    let label = `${date.getDate()} ${monthYear.format(date)}, ${weekday.format(date)}`;
    if (modifiers.today) label += ', today';
    if (modifiers.selected) label += ', selected';
    return label + noteOf(date);
  },
});

const NO_DAYS: readonly AvailableDay[] = [];

export interface BookingCalendarProps {
  /** The selected day. */
  selected: IsoDate;
  /** The clinic's today; earlier days cannot be picked. */
  today: IsoDate;
  onSelect: (date: IsoDate) => void;
  /**
   * The status of each day of the month on show (`GET /api/available/month`): closed, past and
   * too-far days are disabled, full ones marked.
   */
  days?: readonly AvailableDay[];
  /** The month shown changed (its first day), e.g. to fetch its days' statuses. */
  onMonthChange?: (month: IsoDate) => void;
  /** Announced after every change (the calendar's footer is a live region). */
  footer?: string;
  'aria-labelledby'?: string;
}

/**
 * The single-date calendar: one month, weeks starting on Sunday, days nothing can be booked on
 * disabled and full days marked, with a key to the marks under it.
 * Its name sits on a wrapping fieldset (a group): ARIA forbids naming react-day-picker's own root,
 * a plain <div>. Its days are IsoDates; react-day-picker's local `Date`s stay inside it.
 */
export function BookingCalendar({
  selected,
  today,
  onSelect,
  days = NO_DAYS,
  onMonthChange,
  footer,
  'aria-labelledby': labelledBy,
}: BookingCalendarProps) {
  const day = isoToLocalDate(selected);
  const first = isoToLocalDate(today);
  const { statuses, labels } = useMemo(() => {
    const statuses = dayStatuses(days);
    return { statuses, labels: labelsFor(statuses.noteOf) };
  }, [days]);
  return (
    <fieldset aria-labelledby={labelledBy} className="min-w-0">
      <DayPicker
        className="booking-calendar"
        mode="single"
        required
        selected={day}
        onSelect={(picked) => onSelect(localDateToIso(picked))}
        today={first}
        defaultMonth={day}
        startMonth={first}
        disabled={[{ before: first }, statuses.isUnbookable]}
        modifiers={{ closed: statuses.isClosed, full: statuses.isFull }}
        modifiersClassNames={{ closed: 'rdp-closed', full: 'rdp-full' }}
        onMonthChange={onMonthChange ? (month) => onMonthChange(localDateToIso(month)) : undefined}
        numberOfMonths={1}
        weekStartsOn={0}
        labels={labels}
        footer={footer}
      />
      <ul aria-label="Calendar key" className="calendar-key">
        <li>
          <span aria-hidden="true" className="calendar-key-mark calendar-key-full">
            8
          </span>
          <span>Fully booked</span>
        </li>
        <li>
          <span aria-hidden="true" className="calendar-key-mark calendar-key-closed">
            8
          </span>
          <span>Closed</span>
        </li>
      </ul>
    </fieldset>
  );
}
