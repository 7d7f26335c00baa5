import { formatMediumDate } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { catalogueTreatment, dayFromToday, patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { TreatmentsPage } from './treatments-page';

const cleaning = catalogueTreatment({ description: 'A gentle clean.' });
const surgery = catalogueTreatment({
  _id: 'oral-surgery',
  name: 'Oral Surgery',
  price: 400,
  retired: true,
  retiredAt: '2031-01-01T10:00:00.000Z',
  sortOrder: 2,
});

let api: ApiStub;
beforeEach(() => {
  api = stubApi({ 'GET /api/treatments': { body: [cleaning, surgery] } });
  signIn(api, patient, { admin: true });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const show = () =>
  renderInPortal(<TreatmentsPage />, {
    at: '/dashboard/treatments',
    path: '/dashboard/treatments',
  });

describe('the treatments screen', () => {
  it('lists the treatments with price, slot times and whether they are offered', async () => {
    show();
    const row = (await screen.findByRole('rowheader', { name: /Teeth Cleaning/ })).closest('tr');
    expect(row).not.toBeNull();
    const cells = within(row as HTMLElement);
    expect(cells.getByText('$80')).toBeTruthy();
    expect(cells.getByText('2 slots, 10:00 AM to 11:00 AM')).toBeTruthy();
    expect(cells.getByText('Offered')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Bring back Oral Surgery' })).toBeTruthy();
  });

  it('adds a treatment from generated slots, after showing what was wrong', async () => {
    api.on('POST /api/treatments', (call) => ({
      status: 201,
      body: { ...cleaning, ...(call.body as object), _id: 'root-canal', sortOrder: 3 },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'New treatment' }));
    await user.click(screen.getByRole('button', { name: 'Add treatment' }));
    expect(screen.getByText('Name is required.')).toBeTruthy();
    expect(screen.getByText('Add at least one slot time.')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText('Name'), 'Root Canal');
    await user.type(screen.getByLabelText(/Price/), '320.50');
    await user.clear(screen.getByLabelText('Length (minutes)'));
    await user.type(screen.getByLabelText('Length (minutes)'), '240');
    await user.click(screen.getByRole('button', { name: 'Add slots' }));
    expect((screen.getByLabelText('Slot times') as HTMLTextAreaElement).value).toBe(
      '10:00 AM - 2:00 PM\n2:00 PM - 6:00 PM',
    );
    await user.click(screen.getByRole('button', { name: 'Add treatment' }));
    expect(await screen.findByText('Added Root Canal: patients can book it now.')).toBeTruthy();
    const post = api.calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      name: 'Root Canal',
      description: '',
      price: 320.5,
      slots: ['10:00 AM - 2:00 PM', '2:00 PM - 6:00 PM'],
    });
  });

  it('notes slot times outside the opening hours as they are typed, keeping each whole', async () => {
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'New treatment' }));
    const slots = screen.getByLabelText('Slot times');
    await user.type(slots, '10:00 AM - 10:30 AM');
    expect(screen.queryByText(/outside the opening hours/)).toBeNull();
    await user.type(slots, '{Enter}8:00 AM - 8:30 AM{Enter}9:45 PM - 10:15 PM');
    const note = screen.getByRole('status');
    expect(note).toHaveTextContent(
      '2 slot times are outside the opening hours the portal shows (Sat - Fri, 10:00 AM to 10:00 PM): 8:00 AM - 8:30 AM, 9:45 PM - 10:15 PM. Patients can still book them.',
    );
    expect(within(note).getByText('8:00 AM - 8:30 AM')).toHaveClass('whitespace-nowrap');
  });

  it('lists the bookings that hold a slot time an edit removes', async () => {
    const held = dayFromToday(30);
    api.on(
      'PATCH /api/treatments/:id',
      failure(409, 'A booking still holds a slot time this change removes.', {
        reason: 'slots-held',
        bookings: [
          { _id: 'b-1', date: held, slot: '10:30 AM - 11:00 AM', patientName: 'Jane Doe' },
        ],
      }),
    );
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Edit Teeth Cleaning' }));
    const slots = screen.getByLabelText('Slot times');
    await user.clear(slots);
    await user.type(slots, '10:00 AM - 10:30 AM');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const link = await screen.findByRole('link', {
      name: `${formatMediumDate(held)}, 10:30 AM - 11:00 AM`,
    });
    expect(link.getAttribute('href')).toBe(`/dashboard/schedule?date=${held}`);
    expect(screen.getByText(/Jane Doe/)).toBeTruthy();
    const patch = api.calls.find((call) => call.method === 'PATCH');
    expect(patch?.body).toEqual({ slots: ['10:00 AM - 10:30 AM'] });
  });

  it('retires a treatment only after confirming', async () => {
    api.on('PATCH /api/treatments/:id', (call) => ({
      body: { ...cleaning, ...(call.body as object), retiredAt: '2031-01-02T10:00:00.000Z' },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Retire Teeth Cleaning' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Retire Teeth Cleaning\?/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Retire' }));
    expect(
      await screen.findByText('Retired Teeth Cleaning: it is no longer offered.'),
    ).toBeTruthy();
    expect(api.calls.find((call) => call.method === 'PATCH')?.body).toEqual({ retired: true });
  });

  it('keeps the focus in the row after retiring a treatment, on its Bring back button', async () => {
    api.on('PATCH /api/treatments/:id', (call) => ({
      body: { ...cleaning, ...(call.body as object), retiredAt: '2031-01-02T10:00:00.000Z' },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Retire Teeth Cleaning' }));
    api.on('GET /api/treatments', () => ({
      body: [{ ...cleaning, retired: true, retiredAt: '2031-01-02T10:00:00.000Z' }, surgery],
    }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Retire' }),
    );
    const bringBack = await screen.findByRole('button', { name: 'Bring back Teeth Cleaning' });
    await vi.waitFor(() => expect(document.activeElement).toBe(bringBack));
  });
});
