import type { AvailableDay, IsoDate } from '@doctors-portal/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { BookingCalendar } from './booking-calendar';

/** Mid-month, so that days on both sides of it are in the month shown. */
const today = '2031-03-12' as IsoDate;
const days: AvailableDay[] = [
  { date: '2031-03-11', status: 'past' },
  { date: '2031-03-12', status: 'past' },
  { date: '2031-03-13', status: 'full' },
  { date: '2031-03-14', status: 'open' },
  { date: '2031-03-15', status: 'closed', label: 'Spring holiday' },
  { date: '2031-03-16', status: 'closed', label: 'Closed on Sundays' },
  { date: '2031-03-17', status: 'beyond-horizon' },
];
const dayButton = (day: number) =>
  screen.getByRole('button', { name: new RegExp(`^${day} March 2031,`) });

function renderCalendar(onSelect = vi.fn()) {
  render(
    <BookingCalendar
      selected={'2031-03-14' as IsoDate}
      today={today}
      days={days}
      onSelect={onSelect}
    />,
  );
  return { onSelect, user: userEvent.setup() };
}

describe('the booking calendar', () => {
  it('disables closed, past and too-far days, naming why in the day button', () => {
    renderCalendar();
    expect(dayButton(12)).toBeDisabled();
    expect(dayButton(12)).toHaveAccessibleName('12 March 2031, Wednesday, today, too late to book');
    expect(dayButton(15)).toBeDisabled();
    expect(dayButton(15)).toHaveAccessibleName(
      '15 March 2031, Saturday, clinic closed: Spring holiday',
    );
    expect(dayButton(16)).toHaveAccessibleName(
      '16 March 2031, Sunday, clinic closed: Closed on Sundays',
    );
    expect(dayButton(17)).toBeDisabled();
    expect(dayButton(17)).toHaveAccessibleName('17 March 2031, Monday, not yet open for booking');
    expect(dayButton(14)).toBeEnabled();
    expect(dayButton(14)).toHaveAccessibleName('14 March 2031, Friday, selected');
  });

  it('marks a fully booked day, and lets the patient pick it (its waitlist is offered)', async () => {
    const { onSelect, user } = renderCalendar();
    const full = dayButton(13);
    expect(full).toHaveAccessibleName('13 March 2031, Thursday, fully booked');
    expect(full.closest('td')).toHaveClass('rdp-full');
    expect(dayButton(14).closest('td')).not.toHaveClass('rdp-full');
    await user.click(full);
    expect(onSelect).toHaveBeenCalledWith('2031-03-13');
  });

  it('leaves the days of a month it has no statuses for selectable from today on', () => {
    renderCalendar();
    expect(dayButton(20)).toBeEnabled();
    expect(dayButton(20)).toHaveAccessibleName('20 March 2031, Thursday');
    expect(dayButton(10)).toBeDisabled();
  });

  it('explains its marks in a key under the calendar', () => {
    renderCalendar();
    const key = screen.getByRole('list', { name: 'Calendar key' });
    const items = within(key).getAllByRole('listitem');
    // Each item's sample day is hidden from assistive technology: the words are the key.
    expect(items.map((item) => item.lastElementChild?.textContent)).toEqual([
      'Fully booked',
      'Closed',
    ]);
    expect(items[0]?.querySelector('[aria-hidden="true"]')).toHaveClass('calendar-key-full');
    expect(items[1]?.querySelector('[aria-hidden="true"]')).toHaveClass('calendar-key-closed');
  });
});
