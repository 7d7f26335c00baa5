import type { IsoDate } from '@doctors-portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { booking, clinic, onTheWire, patient, signIn, treatment } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import { MyAppointmentsPage } from './my-appointments-page';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, patient);
});

const showMyAppointments = () => renderSignedIn(<MyAppointmentsPage />, { path: '/dashboard' });

const FIRST = '08:00 AM - 08:30 AM';
const SECOND = '08:30 AM - 09:00 AM';

describe('Reschedule in My Appointments', () => {
  it('is offered for each upcoming live booking, paid or not, named with its treatment and date', async () => {
    api.on('GET /api/booking', {
      body: [
        onTheWire(booking()),
        onTheWire(
          booking({
            _id: 'booking-2',
            date: '2030-02-11' as IsoDate,
            paid: true,
            transactionId: 'pi_1',
          }),
        ),
        onTheWire(
          booking({
            _id: 'booking-3',
            date: '2030-03-01' as IsoDate,
            status: 'cancelled',
            cancellable: false,
            cancelReason: 'The dentist is ill.',
          }),
        ),
        onTheWire(booking({ _id: 'booking-4', date: '2020-03-01' as IsoDate, cancellable: false })),
      ],
    });
    showMyAppointments();
    await screen.findByRole('heading', { name: 'My Appointments: 4' });
    expect(
      screen
        .getAllByRole('button', { name: /^Reschedule/ })
        .map((button) => button.getAttribute('aria-label')),
    ).toEqual([
      'Reschedule Teeth Cleaning on Jan 5, 2030',
      'Reschedule Teeth Cleaning on Feb 11, 2030',
    ]);
  });

  it('moves a booking to a free slot of the day, says so, and reads the list again', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('GET /api/available', { body: [treatment] });
    api.on('POST /api/booking/:id/reschedule', (call) => ({
      body: {
        success: true,
        booking: onTheWire(
          booking({ date: '2030-01-07' as IsoDate, slot: (call.body as { slot: string }).slot }),
        ),
      },
    }));
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: `Reschedule Teeth Cleaning on Jan 5, 2030 at ${FIRST}`,
    });
    // On the booking's own day, its own slot is not offered.
    const time = await within(dialog).findByRole('combobox', { name: 'Time' });
    expect(
      within(time)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Pick a time', SECOND]);
    fireEvent.change(within(dialog).getByLabelText('New date'), {
      target: { value: '2030-01-07' },
    });
    await waitFor(() =>
      expect(
        api
          .callsTo('GET /api/available')
          .some((call) => call.url.searchParams.get('date') === 'Jan 7, 2030'),
      ).toBe(true),
    );
    const another = await within(dialog).findByRole('combobox', { name: 'Time' });
    await waitFor(() => expect(within(another).getAllByRole('option')).toHaveLength(3));
    await user.selectOptions(another, FIRST);
    await user.click(within(dialog).getByRole('button', { name: 'Move appointment' }));
    expect(await screen.findByText(`Moved to Jan 7, 2030, ${FIRST}.`)).toBeInTheDocument();
    const [call] = api.callsTo('POST /api/booking/:id/reschedule');
    expect(call?.path).toBe('/api/booking/booking-1/reschedule');
    expect(call?.body).toEqual({ date: 'Jan 7, 2030', slot: FIRST });
    await waitFor(() => expect(dialog).not.toBeVisible());
    await waitFor(() => expect(api.callsTo('GET /api/booking').length).toBeGreaterThan(1));
  });

  it('says why a day picked has no time: the clinic is closed, or it is too far ahead', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('GET /api/available', { body: [{ ...treatment, slots: [] }] });
    api.on('GET /api/available/month', {
      body: {
        month: '2030-01',
        days: [
          { date: '2030-01-07', status: 'closed', label: 'Staff training' },
          { date: '2030-01-08', status: 'full' },
        ],
      },
    });
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    );
    const dialog = await screen.findByRole('dialog');
    const pick = (day: string) =>
      fireEvent.change(within(dialog).getByLabelText('New date'), { target: { value: day } });
    pick('2030-01-07');
    expect(
      await within(dialog).findByText(
        'The clinic is closed on this day (Staff training). Please pick another date on the calendar.',
      ),
    ).toBeVisible();
    // A day that takes bookings but has nothing free says just that.
    pick('2030-01-08');
    expect(
      await within(dialog).findByText(
        'No free time for Teeth Cleaning on Jan 8, 2030. Please pick another day.',
      ),
    ).toBeVisible();
  });

  it('is offered inside the cancellation notice too, saying the visit stays not cancellable online', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking({ cancellable: false }))] });
    api.on('GET /api/available', { body: [treatment] });
    api.on('GET /api/clinic', { body: clinic });
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /^Reschedule Teeth Cleaning/ });
    expect(dialog).toHaveTextContent(
      `You can move this visit, but it can no longer be cancelled online: to cancel it, please call the clinic on ${clinic.phone}.`,
    );
  });

  it('says nothing of it for a visit its patient may still cancel', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('GET /api/available', { body: [treatment] });
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    );
    const dialog = await screen.findByRole('dialog', { name: /^Reschedule Teeth Cleaning/ });
    expect(dialog).not.toHaveTextContent('no longer be cancelled online');
  });

  it('shows a refusal in the dialog, which stays open', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('GET /api/available', { body: [treatment] });
    api.on(
      'POST /api/booking/:id/reschedule',
      failure(409, 'Sorry, someone has just booked this slot. Please pick another one.'),
    );
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Time' }), SECOND);
    await user.click(within(dialog).getByRole('button', { name: 'Move appointment' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Sorry, someone has just booked this slot. Please pick another one.',
    );
    expect(dialog).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(dialog).not.toBeVisible());
  });
});
