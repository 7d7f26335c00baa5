import type { Doctor } from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { ManageDoctorsPage } from './manage-doctors-page';

const ana: Doctor = {
  _id: 'doctor-1',
  name: 'Dr. Ana Ruiz',
  email: 'ana@clinic.test',
  specialty: 'Teeth Cleaning',
  image: '/api/image/ana.png',
  treatmentIds: ['teeth-cleaning'],
  workDays: [1, 2, 3, 4, 5],
  daysOff: [],
};

const firstUrl = 'https://portal.test/api/calendar/first-secret.ics';
const secondUrl = 'https://portal.test/api/calendar/second-secret.ics';

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi({
    'GET /api/doctor': { body: [ana] },
    'GET /api/service': { body: [] },
  });
  const urls = [firstUrl, secondUrl];
  api.on('POST /api/doctor/:id/calendar-feed', () => ({ body: { url: urls.shift() } }));
  api.on('DELETE /api/doctor/:id/calendar-feed', { status: 204 });
});

const show = () =>
  renderInPortal(<ManageDoctorsPage />, {
    at: '/dashboard/manage-doctor',
    path: '/dashboard/manage-doctor',
  });

/** Opens Dr. Ana's feed panel from the doctors table. */
async function openFeed(user: ReturnType<typeof show>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Calendar feed for Dr. Ana Ruiz' }));
  return within(screen.getByRole('region', { name: 'Calendar feed for Dr. Ana Ruiz' }));
}

describe('a doctor’s calendar feed', () => {
  it('makes a link after warning that it replaces any old one, shows it once and copies it', async () => {
    const { user } = show();
    const panel = await openFeed(user);
    expect(screen.getByRole('heading', { name: 'Calendar feed for Dr. Ana Ruiz' })).toHaveFocus();
    expect(
      panel.getByText(
        'Google Calendar, Outlook and Apple Calendar can subscribe to the feed link. It lists the doctor’s visits with the patient’s first name and treatment only.',
      ),
    ).toBeInTheDocument();
    expect(panel.getByText(/a new one stops the old link at once/)).toBeInTheDocument();
    // No link is shown before one is made: the server keeps only its hash.
    expect(panel.queryByRole('textbox')).toBeNull();

    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Make a new calendar feed link for Dr. Ana Ruiz? If they already have one, it stops working at once.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Create feed link' }));

    const link = await panel.findByRole('textbox', { name: 'Feed link for Dr. Ana Ruiz' });
    expect(link).toHaveValue(firstUrl);
    expect(link).toHaveAttribute('readonly');
    expect(link).toHaveAccessibleDescription('Copy it now: it is shown only once.');
    await waitFor(() => expect(link).toHaveFocus());
    const [post] = api.callsTo('POST /api/doctor/:id/calendar-feed');
    expect(post?.path).toBe('/api/doctor/doctor-1/calendar-feed');

    await user.click(panel.getByRole('button', { name: 'Copy link for Dr. Ana Ruiz' }));
    expect(await screen.findByText('Link copied.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(firstUrl);
  });

  it('selects the link for the person to copy when the clipboard refuses', async () => {
    const { user } = show();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('Not allowed'));
    const panel = await openFeed(user);
    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Create feed link' }),
    );
    const link = await panel.findByRole<HTMLInputElement>('textbox', {
      name: 'Feed link for Dr. Ana Ruiz',
    });

    await user.click(panel.getByRole('button', { name: 'Copy link for Dr. Ana Ruiz' }));
    expect(
      await screen.findByText('The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.'),
    ).toBeInTheDocument();
    expect(link).toHaveFocus();
    expect([link.selectionStart, link.selectionEnd]).toEqual([0, firstUrl.length]);
  });

  it('asks before replacing the link it made, and keeps it when the admin cancels', async () => {
    const { user } = show();
    const panel = await openFeed(user);
    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Create feed link' }),
    );
    await panel.findByDisplayValue(firstUrl);

    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Make a new calendar feed link for Dr. Ana Ruiz? The link made before stops working at once.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('POST /api/doctor/:id/calendar-feed')).toHaveLength(1);
    expect(panel.getByDisplayValue(firstUrl)).toBeInTheDocument();

    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Create feed link' }),
    );
    expect(await panel.findByDisplayValue(secondUrl)).toBeInTheDocument();
  });

  it('stops the feed after asking, then makes a new link without asking', async () => {
    const { user } = show();
    const panel = await openFeed(user);
    await user.click(panel.getByRole('button', { name: 'Stop the feed for Dr. Ana Ruiz' }));
    const dialog = screen.getByRole('dialog', {
      name: 'Stop the calendar feed for Dr. Ana Ruiz? Calendars subscribed to its link no longer update.',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Stop the feed' }));

    expect(
      await screen.findByText('Stopped the calendar feed for Dr. Ana Ruiz.'),
    ).toBeInTheDocument();
    const [stop] = api.callsTo('DELETE /api/doctor/:id/calendar-feed');
    expect(stop?.path).toBe('/api/doctor/doctor-1/calendar-feed');
    expect(panel.getByText(/has no calendar feed now/)).toBeInTheDocument();

    // With no feed left, a new link replaces nothing: no question.
    await user.click(panel.getByRole('button', { name: 'Create feed link for Dr. Ana Ruiz' }));
    expect(await panel.findByDisplayValue(firstUrl)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says why the server refused, and gives the focus back on closing', async () => {
    api.on(
      'DELETE /api/doctor/:id/calendar-feed',
      failure(404, 'There is no such doctor: they may have been deleted.'),
    );
    const { user } = show();
    const panel = await openFeed(user);
    await user.click(panel.getByRole('button', { name: 'Stop the feed for Dr. Ana Ruiz' }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop the feed' }),
    );
    expect(
      await screen.findByText('There is no such doctor: they may have been deleted.'),
    ).toBeInTheDocument();

    await user.click(panel.getByRole('button', { name: 'Close calendar feed for Dr. Ana Ruiz' }));
    expect(screen.queryByRole('region', { name: /^Calendar feed for / })).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Calendar feed for Dr. Ana Ruiz' })).toHaveFocus(),
    );
  });
});
