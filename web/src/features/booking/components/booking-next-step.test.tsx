import {
  addDays,
  formatMediumDate,
  type IsoDate,
  messages,
  paths,
  todayIn,
} from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { booking, clinic, onTheWire, patient, signIn, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { BookingSection } from './booking-section';

const day: IsoDate = addDays(todayIn(clinic.timeZone), 10);
const [first = '', second = ''] = treatment.slots;
const start = (slot: string) => slot.split(' - ')[0] ?? slot;

let api: ApiStub;
beforeEach(() => {
  api = stubApi({
    'GET /api/clinic': { body: clinic },
    'GET /api/available': { body: [treatment] },
  });
});

const bookingPage = (at = `/appointment?date=${day}`) =>
  renderInPortal(<BookingSection level={1} />, { at });

describe("a card's free times", () => {
  beforeEach(() => signIn(api, patient));

  it('lists every free time as a chip named by its slot and treatment, the visible time first', async () => {
    bookingPage();
    const times = await screen.findByRole('list', { name: 'Free times for Teeth Cleaning' });
    const chips = within(times).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual(treatment.slots.map(start));
    expect(chips[1]).toHaveAccessibleName(`${second}, book Teeth Cleaning`);
  });

  it('opens the booking form with the tapped time chosen', async () => {
    const { user } = bookingPage();
    await user.click(await screen.findByRole('button', { name: `${second}, book Teeth Cleaning` }));
    const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    await waitFor(() => expect(within(dialog).getByLabelText('Time slot')).toHaveValue(second));
  });

  it("names each 'Book Appointment' button after its treatment, the visible text first", async () => {
    bookingPage();
    expect(
      await screen.findByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
    ).toHaveTextContent(/^Book Appointment$/);
  });
});

describe('a time chip before signing in', () => {
  it('sends the visitor to sign in first (the way back opens the form on that time: ?book=&slot=)', async () => {
    signIn(api, null);
    const { user } = bookingPage();
    await user.click(await screen.findByRole('button', { name: `${first}, book Teeth Cleaning` }));
    expect(await screen.findByRole('heading', { name: /log ?in/i })).toBeInTheDocument();
    expect(api.callsTo('POST /api/booking')).toHaveLength(0);
  });
});

describe('a treatment a link asks for (?treatment=)', () => {
  beforeEach(() => signIn(api, patient));

  it('marks its card out and brings it into view', async () => {
    const scroll = vi.fn();
    Element.prototype.scrollIntoView = scroll;
    api.on('GET /api/available', {
      body: [treatment, { ...treatment, _id: 'teeth-whitening', name: 'Teeth Whitening' }],
    });
    bookingPage(`/appointment?date=${day}&treatment=${encodeURIComponent('Teeth Whitening')}`);
    const card = (await screen.findByRole('heading', { name: 'Teeth Whitening' })).closest('li');
    expect(within(card as HTMLElement).getByText('The service you chose')).toBeVisible();
    expect(screen.getAllByText('The service you chose')).toHaveLength(1);
    await waitFor(() => expect(scroll).toHaveBeenCalled());
    expect(scroll.mock.contexts[0]).toBe(card);
  });
});

describe('after a booking', () => {
  beforeEach(() => {
    signIn(api, patient);
    api.on('GET /api/clinic/calendar', {
      body: {
        from: day,
        to: day,
        openingDays: [0, 1, 2, 3, 4, 5, 6],
        closed: [],
        cancellationNoticeHours: 24,
      },
    });
  });

  async function bookSecondSlot() {
    const made = booking({
      _id: 'b-42',
      date: day,
      slot: second,
      doctor: { _id: 'd-1', name: 'Dr. Ana Ruiz' },
    });
    api.on('POST /api/booking', { status: 201, body: { success: true, booking: onTheWire(made) } });
    const rendered = bookingPage();
    const { user } = rendered;
    await user.click(await screen.findByRole('button', { name: `${second}, book Teeth Cleaning` }));
    const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    await waitFor(() => expect(within(dialog).getByLabelText('Time slot')).toHaveValue(second));
    await user.type(within(dialog).getByLabelText('Phone number'), '+1 555 010 2222');
    await user.type(within(dialog).getByLabelText('Age'), '34');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    return rendered;
  }

  it('keeps the toast and shows the visit, its doctor and the next steps, with focus on them', async () => {
    await bookSecondSlot();
    expect(
      await screen.findByText(messages.bookingSet(formatMediumDate(day), second)),
    ).toBeInTheDocument();
    const panel = await screen.findByRole('region', { name: 'Your visit is booked' });
    await waitFor(() => expect(panel).toHaveFocus());
    expect(within(panel).getByText('Dr. Ana Ruiz')).toBeVisible();
    expect(within(panel).getByText(second)).toBeVisible();
    expect(within(panel).getByText(formatMediumDate(day))).toBeVisible();
    expect(within(panel).getByRole('link', { name: 'Pay now' })).toHaveAttribute(
      'href',
      paths.payment('b-42'),
    );
    expect(
      within(panel).getByText(/You can cancel free of charge until 24 hours before your visit/),
    ).toBeVisible();
  });

  it("downloads the booking's calendar event from 'Add to calendar'", async () => {
    api.on('GET /api/booking/:id/calendar.ics', {
      body: 'BEGIN:VCALENDAR',
      headers: { 'content-disposition': 'attachment; filename="appointment.ics"' },
    });
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:ics'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = await bookSecondSlot();
    const panel = await screen.findByRole('region', { name: 'Your visit is booked' });
    await user.click(within(panel).getByRole('button', { name: 'Add to calendar' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(api.callsTo('GET /api/booking/:id/calendar.ics')[0]?.path).toBe(
      '/api/booking/b-42/calendar.ics',
    );
  });

  it('says why when the calendar event cannot be had', async () => {
    api.on(
      'GET /api/booking/:id/calendar.ics',
      failure(409, 'This appointment is cancelled, so there is no calendar event to add.'),
    );
    const { user } = await bookSecondSlot();
    const panel = await screen.findByRole('region', { name: 'Your visit is booked' });
    await user.click(within(panel).getByRole('button', { name: 'Add to calendar' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'This appointment is cancelled, so there is no calendar event to add.',
    );
  });

  it("goes away on 'Book another', giving focus to the day's list", async () => {
    const { user } = await bookSecondSlot();
    const panel = await screen.findByRole('region', { name: 'Your visit is booked' });
    await user.click(within(panel).getByRole('button', { name: 'Book another' }));
    expect(panel).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /^Available Appointments on/ })).toHaveFocus();
  });
});
