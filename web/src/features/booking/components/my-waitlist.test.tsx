import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import { MyWaitlist } from './my-waitlist';

const entry = {
  id: 'entry-1',
  treatmentId: 'teeth-cleaning',
  treatment: 'Teeth Cleaning',
  date: 'Jan 5, 2030',
  joinedAt: '2029-12-01T10:00:00.000Z',
};

let api: ApiStub;
beforeEach(() => {
  api = stubApi({ 'GET /api/waitlist': { body: { entries: [entry] } } });
  signIn(api, patient);
});

const show = () => renderSignedIn(<MyWaitlist />, { path: '/dashboard' });

describe('My Appointments: the waitlist', () => {
  it('lists the patient’s entries with the treatment and the medium date', async () => {
    show();
    const section = await screen.findByRole('region', { name: 'Your waitlist' });
    expect(within(section).getByText('Teeth Cleaning on Jan 5, 2030')).toBeInTheDocument();
  });

  it('shows nothing while the patient waits for nothing', async () => {
    api.on('GET /api/waitlist', { body: { entries: [] } });
    show();
    await waitFor(() => expect(api.callsTo('GET /api/waitlist')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Your waitlist' })).not.toBeInTheDocument();
  });

  it('asks before leaving, then leaves and reads the list again', async () => {
    api.on('DELETE /api/waitlist/:id', { status: 204 });
    const { user } = show();
    const leave = await screen.findByRole('button', {
      name: 'Leave the waitlist for Teeth Cleaning on Jan 5, 2030',
    });
    await user.click(leave);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Leave the waitlist for Teeth Cleaning on Jan 5, 2030?');
    await user.click(within(dialog).getByRole('button', { name: 'Stay on it' }));
    expect(api.callsTo('DELETE /api/waitlist/:id')).toHaveLength(0);

    api.on('GET /api/waitlist', { body: { entries: [] } });
    await user.click(leave);
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave the waitlist' }),
    );
    expect(
      await screen.findByText('You left the waitlist for Teeth Cleaning on Jan 5, 2030.'),
    ).toBeInTheDocument();
    expect(api.callsTo('DELETE /api/waitlist/:id')[0]?.url.pathname).toBe('/api/waitlist/entry-1');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Your waitlist' })).not.toBeInTheDocument(),
    );
  });
});
