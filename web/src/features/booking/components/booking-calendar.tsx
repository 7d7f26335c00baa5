import 'react-day-picker/style.css';
import './booking-calendar.css';
import type { ClosedDate, IsoDate } from '@doctors-portal/contract';
import { useMemo } from 'react';
import { DayPicker, type Labels } from 'react-day-picker';
import { closedDays } from '../closed-days';
import { isoToLocalDate, localDateToIso } from '../dates';

const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' });
const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long' });

/**
 * Day buttons are named "5 January 2030, Saturday": the name starts with the number the button
 * shows, so speech input ("click 5") works and axe's label-content-name-mismatch rule passes.
 */
const labelsFor = (closedLabel: (date: Date) => string | undefined): Partial<Labels> => ({
  labelDayButton: (date, modifiers) => {
    let label = `${date.getDate()} ${monthYear.format(date)}, ${weekday.format(date)}`;
    if (modifiers.today) label += ', today';
    if (modifiers.selected) label += ', selected';
    const closed = closedLabel(date);
    if (closed) label += `, clinic closed: ${closed}`;
    return label;
  },
});

const NO_CLOSED_DAYS: readonly ClosedDate[] = [];

export interface BookingCalendarProps {
  /** The selected day. */
  selected: IsoDate;
  /** The clinic's today; earlier days cannot be picked. */
  today: IsoDate;
  onSelect: (date: IsoDate) => void;
  /** The days the clinic is closed (weekly or for a closure): shown disabled. */
  closed?: readonly ClosedDate[];
  /** The month shown changed (its first day), e.g. to fetch its closed days. */
  onMonthChange?: (month: IsoDate) => void;
  /** Announced after every change (the calendar's footer is a live region). */
  footer?: string;
  'aria-labelledby'?: string;
}

/**
 * The single-date calendar: one month, weeks starting on Sunday, past and closed days disabled.
 * Its name sits on a wrapping fieldset (a group): ARIA forbids naming react-day-picker's own root,
 * a plain <div>. Its days are IsoDates; react-day-picker's local `Date`s stay inside it.
 */
export function BookingCalendar({
  selected,
  today,
  onSelect,
  closed = NO_CLOSED_DAYS,
  onMonthChange,
  footer,
  'aria-labelledby': labelledBy,
}: BookingCalendarProps) {
  const day = isoToLocalDate(selected);
  const first = isoToLocalDate(today);
  const { isClosed, labels } = useMemo(() => {
    const days = closedDays(closed);
    return { isClosed: days.isClosed, labels: labelsFor(days.labelOf) };
  }, [closed]);
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
        disabled={[{ before: first }, isClosed]}
        modifiers={{ closed: isClosed }}
        modifiersClassNames={{ closed: 'rdp-closed' }}
        onMonthChange={onMonthChange ? (month) => onMonthChange(localDateToIso(month)) : undefined}
        numberOfMonths={1}
        weekStartsOn={0}
        labels={labels}
        footer={footer}
      />
    </fieldset>
  );
}
