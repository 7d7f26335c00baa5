import {
  type ClinicRules,
  type ClosureWithBookings,
  closureWithBookingsSchema,
  formatMediumDate,
  type IsoDate,
} from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiStub } from '../../../test/fetch-stub';
import { booking, dayFromToday, onTheWire, stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { ClinicPage } from './clinic-page';

const defaults = {
  horizonDays: 180,
  minNoticeMinutes: 0,
  maxUnpaidBookings: 5,
  cancellationNoticeHours: 0,
  reminderLeadHours: 24,
};
const rules: ClinicRules = { rules: defaults, defaults, stored: false };

/** A two-day holiday some weeks ahead, with a booking on its first day. */
const [firstDay, lastDay] = [dayFromToday(50), dayFromToday(51)];
const { cancellable: _, ...bookingFields } = booking({ _id: 'b-1', date: firstDay });
const holiday: ClosureWithBookings = {
  id: 'c-1',
  from: firstDay,
  to: lastDay,
  label: 'Christmas',
  createdAt: '2031-01-01T10:00:00.000Z',
  bookings: [
    {
      ...bookingFields,
      patientId: 'p-1',
      noShows: 0,
      cancelledAt: null,
      cancelledBy: null,
    },
  ],
};

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi({
    'GET /api/clinic/calendar': {
      body: {
        from: '2031-01-01',
        to: '2031-01-01',
        openingDays: [1, 2, 3, 4, 5, 6],
        closed: [],
        cancellationNoticeHours: 24,
      },
    },
    'GET /api/clinic/rules': { body: rules },
    'GET /api/closures': { body: [] },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const show = () =>
  renderInPortal(<ClinicPage />, { at: '/dashboard/clinic', path: '/dashboard/clinic' });

describe('the clinic screen', () => {
  it('shows the opening days and saves them; refuses to close every day', async () => {
    api.on('PUT /api/clinic/opening-days', (call) => ({
      body: { ...(call.body as object), bookings: [] },
    }));
    const { user } = show();
    const sunday = await screen.findByRole('checkbox', { name: 'Sunday' });
    expect((sunday as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Monday' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(screen.getByRole('checkbox', { name: 'Saturday' }));
    await user.click(screen.getByRole('button', { name: 'Save opening days' }));
    expect(await screen.findByText('Opening days saved.')).toBeTruthy();
    expect(api.calls.find((call) => call.path === '/api/clinic/opening-days')?.body).toEqual({
      days: [1, 2, 3, 4, 5],
    });

    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await user.click(screen.getByRole('checkbox', { name: day }));
    }
    await user.click(screen.getByRole('button', { name: 'Save opening days' }));
    expect(screen.getByText('Keep at least one day of the week open.')).toBeTruthy();
  });

  it('warns of the bookings still on the weekdays it closed', async () => {
    const [kept] = holiday.bookings;
    api.on('PUT /api/clinic/opening-days', (call) => ({
      body: {
        ...(call.body as object),
        bookings: [closureWithBookingsSchema.encode(holiday).bookings[0]],
      },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('checkbox', { name: 'Saturday' }));
    await user.click(screen.getByRole('button', { name: 'Save opening days' }));
    expect(
      await screen.findByText(
        `Opening days saved. 1 booking is still on the days now closed, the first on ${formatMediumDate(kept?.date as IsoDate)}: see the schedule.`,
      ),
    ).toBeTruthy();
  });

  it('adds a closure after showing what was wrong, lists its bookings, and cancels them with its label', async () => {
    let closures: ClosureWithBookings[] = [];
    api.on('GET /api/closures', () => ({
      body: closures.map((closure) => closureWithBookingsSchema.encode(closure)),
    }));
    api.on('POST /api/closures', () => {
      closures = [holiday];
      return { status: 201, body: closureWithBookingsSchema.encode(holiday) };
    });
    api.on('POST /api/booking/:id/cancel', () => {
      closures = [{ ...holiday, bookings: [] }];
      return { body: { booking: onTheWire(booking({ _id: 'b-1', status: 'cancelled' })) } };
    });
    const { user } = show();
    await screen.findByText('No closures');
    await user.click(screen.getByRole('button', { name: 'Add closure' }));
    expect(screen.getAllByText('Pick a date.')).toHaveLength(2);
    expect(screen.getByText('Give the closure a label, such as the holiday’s name.')).toBeTruthy();
    expect(api.calls.some((call) => call.path === '/api/closures' && call.method === 'POST')).toBe(
      false,
    );

    await user.type(screen.getByLabelText('First closed day'), firstDay);
    await user.clear(screen.getByLabelText('Last closed day'));
    await user.type(screen.getByLabelText('Last closed day'), lastDay);
    await user.type(screen.getByLabelText('Label'), 'Christmas');
    await user.click(screen.getByRole('button', { name: 'Add closure' }));
    expect(
      api.calls.find((call) => call.path === '/api/closures' && call.method === 'POST')?.body,
    ).toEqual({ from: firstDay, to: lastDay, label: 'Christmas' });
    expect(await screen.findByText(/1 booking is still on these days/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cancel and notify' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        `Cancel 1 booking on ${formatMediumDate(firstDay)} – ${formatMediumDate(lastDay)}`,
        { exact: false },
      ),
    ).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel and notify' }));
    expect(
      await screen.findByText(/Cancelled 1 booking; the patient has been notified\./),
    ).toBeTruthy();
    expect(api.calls.find((call) => call.path === '/api/booking/b-1/cancel')?.body).toEqual({
      reason: 'Christmas',
    });
    // The card is read again: no booking left on its days, nothing left to cancel.
    await waitFor(() => expect(screen.queryByText(/1 booking is still on these days/)).toBeNull());
    expect(screen.queryByRole('button', { name: 'Cancel and notify' })).toBeNull();
  });

  it('keeps the focus on the closure after cancelling its bookings, on its Remove button', async () => {
    let closures: ClosureWithBookings[] = [holiday];
    api.on('GET /api/closures', () => ({
      body: closures.map((closure) => closureWithBookingsSchema.encode(closure)),
    }));
    api.on('POST /api/booking/:id/cancel', () => {
      closures = [{ ...holiday, bookings: [] }];
      return { body: { booking: onTheWire(booking({ _id: 'b-1', status: 'cancelled' })) } };
    });
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Cancel and notify' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel and notify' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Cancel and notify' })).toBeNull(),
    );
    const remove = screen.getByRole('button', { name: /^Remove the closure Christmas/ });
    await waitFor(() => expect(document.activeElement).toBe(remove));
  });

  it('gives the focus to the list of closures after removing one', async () => {
    let closures: ClosureWithBookings[] = [{ ...holiday, bookings: [] }];
    api.on('GET /api/closures', () => ({
      body: closures.map((closure) => closureWithBookingsSchema.encode(closure)),
    }));
    api.on('DELETE /api/closures/:id', () => {
      closures = [];
      return { status: 204 };
    });
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: /^Remove the closure Christmas/ }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove closure' }),
    );
    expect(await screen.findByText('No closures')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Upcoming closures' }));
  });

  it('shows inline errors for rules out of range and saves valid ones', async () => {
    api.on('PUT /api/clinic/rules', (call) => ({
      body: { rules: call.body, defaults, stored: true },
    }));
    const { user } = show();
    const horizon = await screen.findByLabelText('Booking horizon (days)');
    await user.clear(horizon);
    await user.type(horizon, '0');
    await user.click(screen.getByRole('button', { name: 'Save booking rules' }));
    expect(screen.getByText('Enter a whole number of days from 1 to 36500.')).toBeTruthy();
    await user.clear(horizon);
    await user.type(horizon, '90');
    await user.click(screen.getByRole('button', { name: 'Save booking rules' }));
    expect(await screen.findByText('Booking rules saved.')).toBeTruthy();
    expect(
      api.calls.find((call) => call.path === '/api/clinic/rules' && call.method === 'PUT')?.body,
    ).toEqual({
      ...defaults,
      horizonDays: 90,
    });
  });
});
