import type { IsoDate } from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../../../lib/auth/access-token';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { booking, clinic, onTheWire, patient, signIn } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import { MyAppointmentsPage } from './my-appointments-page';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, patient);
  api.on('GET /api/clinic', { body: clinic });
});

const showMyAppointments = () =>
  renderSignedIn(<MyAppointmentsPage />, { path: '/dashboard', at: '/dashboard?tab=upcoming' });

describe('My Appointments', () => {
  it('lists the patient’s bookings with the count, each date in the medium format', async () => {
    api.on('GET /api/booking', {
      body: [
        onTheWire(booking()),
        onTheWire(
          booking({
            _id: 'booking-2',
            date: '2030-02-11' as IsoDate,
            paid: true,
            transactionId: 'pi_9',
          }),
        ),
      ],
    });
    showMyAppointments();
    expect(await screen.findByRole('heading', { name: 'My Appointments: 2' })).toBeInTheDocument();
    const [first, second] = screen.getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Jan 5, 2030');
    // Each action is named by its visible text, then the visit it acts on.
    expect(
      within(first as HTMLElement).getByRole('link', {
        name: 'Plz Pay, Teeth Cleaning on Jan 5, 2030',
      }),
    ).toHaveAttribute('href', '/dashboard/payment/booking-1');
    expect(second).toHaveTextContent('Feb 11, 2030');
    expect(second).toHaveTextContent('PAID');
    expect(second).toHaveTextContent('Transaction id: pi_9');
    expect(api.callsTo('GET /api/booking')[0]?.url.searchParams.get('patientMail')).toBe(
      patient.email,
    );
  });

  it('offers Book another visit beside the heading once there is a booking', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    showMyAppointments();
    await screen.findByRole('heading', { name: 'My Appointments: 1' });
    expect(screen.getByRole('link', { name: 'Book another visit' })).toHaveAttribute(
      'href',
      '/appointment',
    );
  });

  it('with no bookings, offers one way to book: the empty state’s', async () => {
    api.on('GET /api/booking', { body: [] });
    showMyAppointments();
    expect(await screen.findByText('You have no appointments yet')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Appointments: 0' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Book / })).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Book an appointment' })).toHaveAttribute(
      'href',
      '/appointment',
    );
  });

  it('names the doctor of each visit in the Doctor column, and shows — when there is none', async () => {
    api.on('GET /api/booking', {
      body: [
        onTheWire(booking({ doctor: { _id: 'doctor-a', name: 'Dr. Ana Ruiz' } })),
        onTheWire(booking({ _id: 'booking-2', date: '2030-02-11' as IsoDate, doctor: null })),
      ],
    });
    showMyAppointments();
    await screen.findByRole('heading', { name: 'My Appointments: 2' });
    const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    const column = headers.indexOf('Doctor');
    expect(column).toBeGreaterThan(headers.indexOf('Treatment'));
    const [first, second] = screen.getAllByRole('row').slice(1) as HTMLElement[];
    const cellOf = (row: HTMLElement | undefined) =>
      within(row as HTMLElement).getAllByRole('cell', { hidden: true })[column - 1];
    expect(cellOf(first)).toHaveTextContent('Dr. Ana Ruiz');
    expect(cellOf(first)).toHaveAttribute('data-label', 'Doctor');
    expect(within(cellOf(second) as HTMLElement).getByText('—')).toBeInTheDocument();
    expect(cellOf(second)).toHaveTextContent('No doctor');
  });

  it('shows a booking the clinic cancelled with its reason, REFUNDED with the refund id when it was paid', async () => {
    api.on('GET /api/booking', {
      body: [
        onTheWire(
          booking({
            status: 'cancelled',
            cancellable: false,
            paid: true,
            transactionId: 'pi_9',
            cancelReason: 'The dentist is ill.',
            refund: { id: 're_demo_42' },
          }),
        ),
      ],
    });
    showMyAppointments();
    const [row] = (await screen.findAllByRole('row')).slice(1);
    expect(row).toHaveTextContent('REFUNDED');
    expect(row).toHaveTextContent('Refund id: re_demo_42');
    expect(row).toHaveTextContent('Cancelled by the clinic');
    expect(row).toHaveTextContent('The dentist is ill.');
    expect(row).not.toHaveTextContent('PAID');
    expect(within(row as HTMLElement).queryByRole('button', { name: /^Cancel / })).toBeNull();
  });

  for (const status of [401, 403]) {
    it(`a ${status} ends the session: the token is forgotten and the patient goes to /login, to come back after`, async () => {
      api.on('GET /api/booking', failure(status, 'Please log in first.'));
      showMyAppointments();
      expect(
        await screen.findByRole('heading', { name: 'Login page, back to /dashboard?tab=upcoming' }),
      ).toBeInTheDocument();
      expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    });
  }

  it('another failure says so, with Try again', async () => {
    api.on('GET /api/booking', failure(500, 'The portal had a problem.'));
    const { user } = showMyAppointments();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your appointments could not be loaded. The portal had a problem.',
    );
    api.on('GET /api/booking', { body: [] });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('You have no appointments yet')).toBeInTheDocument();
  });

  it('cancels a booking after asking, and reads the list again', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('DELETE /api/booking/:id', { body: { deletedCount: 1 } });
    const { user } = showMyAppointments();
    await user.click(await screen.findByRole('button', { name: /^Cancel / }));
    const question = await screen.findByRole('dialog', {
      name: 'Cancel your Teeth Cleaning appointment on Jan 5, 2030 at 08:00 AM - 08:30 AM?',
    });
    api.on('GET /api/booking', { body: [] });
    await user.click(within(question).getByRole('button', { name: 'Cancel appointment' }));
    expect(
      await screen.findByText(
        'Your Teeth Cleaning appointment on Jan 5, 2030 at 08:00 AM - 08:30 AM is cancelled.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/booking/:id')[0]?.path).toBe('/api/booking/booking-1');
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'My Appointments: 0' })).toBeInTheDocument(),
    );
  });

  it('gives the focus to the heading after leaving the waitlist, whose row is gone', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    api.on('GET /api/waitlist', {
      body: {
        entries: [
          {
            id: 'entry-1',
            treatmentId: 'teeth-cleaning',
            treatment: 'Teeth Cleaning',
            date: 'Jan 5, 2030',
            joinedAt: '2029-12-01T10:00:00.000Z',
          },
        ],
      },
    });
    api.on('DELETE /api/waitlist/:id', () => {
      api.on('GET /api/waitlist', { body: { entries: [] } });
      return { status: 204 };
    });
    const { user } = showMyAppointments();
    await user.click(
      await screen.findByRole('button', {
        name: 'Leave the waitlist for Teeth Cleaning on Jan 5, 2030',
      }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave the waitlist' }),
    );
    expect(
      await screen.findByText('You left the waitlist for Teeth Cleaning on Jan 5, 2030.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'My Appointments: 1' }),
      ),
    );
  });

  it('cancels a paid booking in time: says the payment is refunded, then shows it REFUNDED', async () => {
    const paid = booking({ paid: true, transactionId: 'pi_9' });
    api.on('GET /api/booking', { body: [onTheWire(paid)] });
    api.on('DELETE /api/booking/:id', { body: { deletedCount: 1 } });
    const { user } = showMyAppointments();
    await user.click(await screen.findByRole('button', { name: /^Cancel / }));
    const question = await screen.findByRole('dialog', {
      name: 'Cancel your Teeth Cleaning appointment on Jan 5, 2030 at 08:00 AM - 08:30 AM? Your payment of $80 will be refunded to your card.',
    });
    api.on('GET /api/booking', {
      body: [
        onTheWire({
          ...paid,
          status: 'cancelled',
          cancellable: false,
          refund: { id: 're_demo_1' },
        }),
      ],
    });
    await user.click(within(question).getByRole('button', { name: 'Cancel appointment' }));
    expect(
      await screen.findByText(
        'Your Teeth Cleaning appointment on Jan 5, 2030 at 08:00 AM - 08:30 AM is cancelled, and your payment is refunded to your card.',
      ),
    ).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /Cancelled by you/ });
    expect(row).toHaveTextContent('REFUNDED');
    expect(row).toHaveTextContent('Refund id: re_demo_1');
    expect(within(row).queryByRole('button', { name: /^Cancel / })).toBeNull();
  });

  it('offers no Cancel once the notice has passed, and shows a late refusal in full', async () => {
    api.on('GET /api/booking', {
      body: [
        onTheWire(booking({ _id: 'booking-late', cancellable: false })),
        onTheWire(booking({ date: '2030-02-11' as IsoDate })),
      ],
    });
    const late =
      'Appointments can be cancelled online up to 24 hours before the visit, and this one starts sooner. Please call the clinic on +1 (555) 010-2030.';
    api.on('DELETE /api/booking/:id', failure(409, late));
    const { user } = showMyAppointments();
    const [first] = (await screen.findAllByRole('row')).slice(1) as HTMLElement[];
    expect(within(first as HTMLElement).queryByRole('button', { name: /^Cancel / })).toBeNull();
    // It says why, and whom to call.
    expect(first).toHaveTextContent(
      `This visit can no longer be cancelled online. To cancel it, call ${clinic.phone}.`,
    );
    expect(within(first as HTMLElement).getByRole('link', { name: clinic.phone })).toHaveAttribute(
      'href',
      'tel:+15550100000',
    );
    await user.click(screen.getByRole('button', { name: /^Cancel / }));
    const question = await screen.findByRole('dialog', { name: /Feb 11, 2030/ });
    await user.click(within(question).getByRole('button', { name: 'Cancel appointment' }));
    expect(await screen.findByText(late)).toBeInTheDocument();
  });
});

const deviceZone = process.env.TZ;
afterEach(() => {
  if (deviceZone === undefined) delete process.env.TZ;
  else process.env.TZ = deviceZone;
});

/** The device in `zone`, its clock at `iso`. */
function deviceAt(zone: string, iso: string) {
  process.env.TZ = zone;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
}

// The visits that may still be moved are those from the clinic's today on (America/New_York in
// the fixtures), as the server's rules have them, whatever the device's own date.
describe('My Appointments on a device in another time zone than the clinic', () => {
  it('offers Reschedule for a visit later today in the clinic (device already on tomorrow)', async () => {
    // 11:00 AM on Jan 5, 2030 in New York = 1:00 AM on Jan 6 in Tokyo.
    deviceAt('Asia/Tokyo', '2030-01-05T16:00:00Z');
    api.on('GET /api/booking', {
      body: [onTheWire(booking({ date: '2030-01-05' as IsoDate, slot: '3:00 PM - 3:30 PM' }))],
    });
    showMyAppointments();
    await screen.findByRole('heading', { name: 'My Appointments: 1' });
    expect(
      screen.queryByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    ).toBeInTheDocument();
  });

  it('offers no Reschedule for a visit of the clinic’s yesterday (device still on that day)', async () => {
    // 12:30 AM on Jan 6, 2030 in New York = 9:30 PM on Jan 5 in Los Angeles.
    deviceAt('America/Los_Angeles', '2030-01-06T05:30:00Z');
    api.on('GET /api/booking', {
      body: [
        onTheWire(
          booking({ date: '2030-01-05' as IsoDate, slot: '3:00 PM - 3:30 PM', cancellable: false }),
        ),
      ],
    });
    showMyAppointments();
    await screen.findByRole('heading', { name: 'My Appointments: 1' });
    expect(
      screen.queryByRole('button', { name: 'Reschedule Teeth Cleaning on Jan 5, 2030' }),
    ).toBeNull();
  });
});
