import { type HistoryEntry, historyEntrySchema, type IsoDate } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { SignedInOutlet } from '../../../lib/auth/guards';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { HistoryPage } from './history-page';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, patient);
});

const visit = (overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  _id: 'visit-1',
  date: '2030-01-05' as IsoDate,
  slot: '10:00 AM - 10:30 AM',
  treatment: 'Teeth Cleaning',
  doctor: null,
  status: 'past',
  price: 80,
  paid: false,
  refunded: false,
  ...overrides,
});
const onTheWire = (entries: HistoryEntry[]) => historyEntrySchema.array().encode(entries);

const showHistory = () =>
  renderInPortal(null, {
    at: '/dashboard/history',
    routes: (
      <Route element={<SignedInOutlet />}>
        <Route path="/dashboard/history" element={<HistoryPage />} />
      </Route>
    ),
  });

describe('My History', () => {
  it("keeps the spec's heading and lists each visit's date, time, treatment, doctor, status and payment", async () => {
    api.on('GET /api/booking/history', {
      body: onTheWire([
        visit({
          _id: 'v-1',
          status: 'completed',
          paid: true,
          doctor: { _id: 'maya-chen', name: 'Dr. Maya Chen' },
          date: '2030-02-11' as IsoDate,
        }),
        visit({ _id: 'v-2', status: 'cancelled_by_clinic', paid: true, refunded: true }),
        visit({ _id: 'v-3', status: 'cancelled_by_patient', treatment: 'Cavity Filling' }),
        visit({ _id: 'v-4', status: 'no_show' }),
      ]),
    });
    showHistory();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This is my History!' }),
    ).toBeVisible();
    const list = await screen.findByRole('list', { name: 'Past and cancelled visits' });
    const [first, second, third, fourth] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Teeth Cleaning');
    expect(first).toHaveTextContent('Feb 11, 2030');
    expect(first).toHaveTextContent('10:00 AM - 10:30 AM');
    expect(first).toHaveTextContent('Dr. Maya Chen');
    expect(first).toHaveTextContent('Completed');
    expect(first).toHaveTextContent('Paid ($80)');
    expect(second).toHaveTextContent('Cancelled by the clinic');
    expect(second).toHaveTextContent('Refunded');
    expect(third).toHaveTextContent('Cancelled by you');
    expect(third).toHaveTextContent('Cavity Filling');
    expect(fourth).toHaveTextContent('No-show');
    expect(fourth).toHaveTextContent('Not paid');
    expect(api.callsTo('GET /api/booking/history')[0]?.headers.get('authorization')).toBe(
      'Bearer token-1',
    );
  });

  it('says so when there is no visit yet, with a way to book', async () => {
    api.on('GET /api/booking/history', { body: [] });
    showHistory();
    expect(await screen.findByText('No visits yet')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Book an appointment' })).toHaveAttribute(
      'href',
      '/appointment',
    );
  });

  it('shows the reason when the history cannot be loaded', async () => {
    api.on('GET /api/booking/history', failure(500, 'The database is resting.'));
    showHistory();
    expect(await screen.findByText(/Your history could not be loaded/)).toHaveTextContent(
      'The database is resting.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
  });
});
