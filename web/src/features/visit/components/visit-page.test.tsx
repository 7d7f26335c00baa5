import { CANCELLATION_CLOSED, type VisitLink, visitLinkMessages } from '@doctors-portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { clinic, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { VisitPage } from './visit-page';

const FIRST = '08:00 AM - 08:30 AM';
const SECOND = '08:30 AM - 09:00 AM';

/** A link's answer as the server sends it (the date in the medium format). */
const link = (action: VisitLink['action'], booking: Record<string, unknown> = {}) => ({
  action,
  booking: {
    id: 'booking-1',
    treatmentId: 'teeth-cleaning',
    treatment: 'Teeth Cleaning',
    date: 'Jan 5, 2030',
    slot: FIRST,
    doctor: { _id: 'dr-lee', name: 'Dr Lee' },
    status: 'booked',
    paid: false,
    cancellable: true,
    ...booking,
  },
  policy:
    'You can cancel free of charge until 24 hours before your visit; a paid visit cancelled by then is refunded to your card. After that, please call the clinic on +1 555 010 0000.',
});
const outcome = (booking: Record<string, unknown>, refunded = false) => ({
  booking: link('confirm', booking).booking,
  refunded,
});

let api: ApiStub;
beforeEach(() => {
  api = stubApi({ 'GET /api/clinic': { body: clinic } });
});

const openLink = () => renderInPortal(<VisitPage token="tok" />);

describe('the page of a mail’s one-tap link', () => {
  it('confirms on arrival, once, with a POST from the page, and says so', async () => {
    api.on('GET /api/visit/:token', { body: link('confirm') });
    api.on('POST /api/visit/:token/confirm', { body: outcome({ status: 'confirmed' }) });
    openLink();
    await screen.findByRole('heading', { name: 'Your visit is confirmed' });
    expect(screen.getByText('Jan 5, 2030')).toBeInTheDocument();
    expect(screen.getByText('Dr Lee')).toBeInTheDocument();
    expect(api.callsTo('POST /api/visit/:token/confirm')).toHaveLength(1);
    expect(
      api.callsTo('POST /api/visit/:token/confirm')[0]?.headers.get('authorization'),
    ).toBeNull();
  });

  it('shows why a confirmation failed', async () => {
    api.on('GET /api/visit/:token', { body: link('confirm') });
    api.on('POST /api/visit/:token/confirm', failure(409, visitLinkMessages.cancelled));
    openLink();
    await screen.findByRole('heading', { name: 'Your visit could not be confirmed' });
    expect(screen.getByRole('alert')).toHaveTextContent(visitLinkMessages.cancelled);
  });

  it('asks once before cancelling, states the policy, then shows the refund', async () => {
    api.on('GET /api/visit/:token', { body: link('cancel', { paid: true }) });
    api.on('POST /api/visit/:token/cancel', {
      body: outcome({ status: 'cancelled', paid: true }, true),
    });
    const { user } = openLink();
    await screen.findByRole('heading', { name: 'Cancel your visit' });
    expect(screen.getByText(/^You can cancel free of charge until 24 hours/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel my visit' }));
    expect(
      await screen.findByRole('heading', {
        name: `Cancel your Teeth Cleaning on Jan 5, 2030 at ${FIRST}?`,
      }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(api.callsTo('POST /api/visit/:token/cancel')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel my visit' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, cancel it' }));
    await screen.findByRole('heading', { name: 'Your visit is cancelled' });
    expect(screen.getByText(/Your payment is refunded to your card/)).toBeInTheDocument();
    expect(api.callsTo('POST /api/visit/:token/cancel')).toHaveLength(1);
  });

  it('after the cancellation notice, says why the visit stays, with the clinic’s phone', async () => {
    const refusal = 'Visits can be cancelled online until 24 hours before they start.';
    api.on('GET /api/visit/:token', { body: link('cancel') });
    api.on('POST /api/visit/:token/cancel', failure(409, refusal));
    const { user } = openLink();
    await user.click(await screen.findByRole('button', { name: 'Cancel my visit' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, cancel it' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('link', { name: clinic.phone })).toHaveAttribute(
      'href',
      'tel:+15550100000',
    );
    expect(screen.getByRole('button', { name: 'Cancel my visit' })).toBeDisabled();
  });

  it('offers no cancelling of a visit already past the notice: the policy says so, with the phone', async () => {
    const policy = `${link('cancel').policy} ${CANCELLATION_CLOSED}`;
    api.on('GET /api/visit/:token', {
      body: { ...link('cancel', { cancellable: false }), policy },
    });
    openLink();
    await screen.findByRole('heading', { name: 'Cancel your visit' });
    expect(screen.getByText(policy)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel my visit' })).toBeNull();
    expect(await screen.findByRole('link', { name: clinic.phone })).toBeInTheDocument();
  });

  it('moves the visit to a free time of its treatment through the link', async () => {
    api.on('GET /api/visit/:token', { body: link('reschedule') });
    api.on('GET /api/available', { body: [treatment] });
    api.on('POST /api/visit/:token/reschedule', (call) => ({
      body: outcome({ ...(call.body as object) }),
    }));
    const { user } = openLink();
    await screen.findByRole('heading', { name: 'Reschedule Teeth Cleaning' });
    expect(screen.getByRole('note')).toHaveTextContent(
      `Moving your Teeth Cleaning on Jan 5, 2030 at ${FIRST}`,
    );
    // Its own time is not offered on its own day.
    const time = await screen.findByRole('combobox', { name: 'Time' });
    expect([...(time as HTMLSelectElement).options].map((option) => option.value)).toEqual([
      '',
      SECOND,
    ]);
    await user.selectOptions(time, SECOND);
    await user.click(screen.getByRole('button', { name: 'Move my visit' }));
    await screen.findByRole('heading', { name: 'Your visit is moved' });
    expect(screen.getByText(`Moved to Jan 5, 2030, ${SECOND}.`)).toBeInTheDocument();
    expect(api.callsTo('POST /api/visit/:token/reschedule')[0]?.body).toEqual({
      date: 'Jan 5, 2030',
      slot: SECOND,
    });
  });

  it('shows a refused move in the form, which stays', async () => {
    api.on('GET /api/visit/:token', { body: link('reschedule') });
    api.on('GET /api/available', { body: [treatment] });
    api.on('POST /api/visit/:token/reschedule', failure(409, 'Sorry, that slot was just taken.'));
    const { user } = openLink();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Time' }), SECOND);
    await user.click(screen.getByRole('button', { name: 'Move my visit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Sorry, that slot was just taken.');
    expect(screen.getByRole('heading', { name: 'Reschedule Teeth Cleaning' })).toBeInTheDocument();
  });

  it.each([
    [404, visitLinkMessages.invalid, 'This link does not work'],
    [410, visitLinkMessages.expired, 'This link has expired'],
    [409, visitLinkMessages.used, 'This link cannot be used'],
  ])('says plainly why a link cannot be used (%i)', async (status, message, title) => {
    api.on('GET /api/visit/:token', failure(status, message));
    openLink();
    await screen.findByRole('heading', { name: title });
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My Appointments' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    await waitFor(() => expect(screen.getByRole('link', { name: clinic.phone })).toBeVisible());
    expect(api.callsTo('POST /api/visit/:token/confirm')).toHaveLength(0);
  });
});
