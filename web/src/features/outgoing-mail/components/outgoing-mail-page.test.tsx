import type { MailFailure } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure, never } from '../../../test/fetch-stub';
import { stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { OutgoingMailPage } from './outgoing-mail-page';

function failed(overrides: Partial<MailFailure> = {}): MailFailure {
  return {
    id: 'mail-1',
    kind: 'booking-reminder',
    to: 'maya@mail.com',
    attempts: 3,
    lastError: '421 Service not available',
    nextAttemptAt: '2031-01-05T15:30:00.000Z',
    createdAt: '2031-01-05T15:00:00.000Z',
    ...overrides,
  };
}

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi();
});

const showOutgoingMail = () =>
  renderInPortal(<OutgoingMailPage />, { at: '/dashboard/mail', path: '/dashboard/mail' });

describe('the Outgoing mail screen', () => {
  it('lists the failed mail: kind, recipient, attempts, last error, next attempt or given up', async () => {
    api.on('GET /api/mail/failures', {
      body: {
        failures: [
          failed(),
          failed({
            id: 'mail-2',
            kind: 'payment-receipt',
            to: 'omar@mail.com',
            attempts: 8,
            lastError: null,
            nextAttemptAt: null,
          }),
        ],
      },
    });
    showOutgoingMail();
    expect(await screen.findByRole('heading', { name: 'Outgoing mail' })).toBeInTheDocument();
    const [, reminder, receipt] = await screen.findAllByRole('row');
    expect(reminder).toHaveTextContent('Reminder');
    expect(reminder).toHaveTextContent('maya@mail.com');
    expect(reminder).toHaveTextContent('421 Service not available');
    // 15:30 UTC in the clinic's zone (New York).
    expect(reminder).toHaveTextContent('Jan 5, 2031, 10:30 AM');
    expect(receipt).toHaveTextContent('Payment receipt');
    expect(receipt).toHaveTextContent('8');
    expect(within(receipt as HTMLElement).getByText('Given up')).toBeInTheDocument();
  });

  it('retries one message, then reads the list again', async () => {
    let retried = false;
    api.on('GET /api/mail/failures', () => ({
      body: { failures: retried ? [] : [failed()] },
    }));
    api.on('POST /api/mail/failures/:id/retry', (call) => {
      retried = call.path.endsWith('/mail-1/retry');
      return { status: 204 };
    });
    const { user } = showOutgoingMail();
    await user.click(
      await screen.findByRole('button', { name: 'Retry the reminder to maya@mail.com' }),
    );
    expect(await screen.findByText('No failed mail')).toBeInTheDocument();
    expect(api.callsTo('POST /api/mail/failures/:id/retry')).toHaveLength(1);
  });

  it('gives the focus to the heading once a retried message leaves the list', async () => {
    let retried = false;
    api.on('GET /api/mail/failures', () => ({
      body: {
        failures: retried
          ? [failed({ id: 'mail-2', to: 'ben@mail.com' })]
          : [failed(), failed({ id: 'mail-2', to: 'ben@mail.com' })],
      },
    }));
    api.on('POST /api/mail/failures/:id/retry', () => {
      retried = true;
      return { status: 204 };
    });
    const { user } = showOutgoingMail();
    await user.click(
      await screen.findByRole('button', { name: 'Retry the reminder to maya@mail.com' }),
    );
    expect(
      await screen.findByText('Reminder to maya@mail.com is sent again now.'),
    ).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Outgoing mail' })),
    );
  });

  it('says why a retry was refused', async () => {
    api.on('GET /api/mail/failures', { body: { failures: [failed()] } });
    api.on('POST /api/mail/failures/:id/retry', failure(404, 'There is no such failed mail.'));
    const { user } = showOutgoingMail();
    await user.click(await screen.findByRole('button', { name: /^Retry/ }));
    expect(await screen.findByText('There is no such failed mail.')).toBeInTheDocument();
  });

  it('shows that the list is loading', async () => {
    api.on('GET /api/mail/failures', never);
    showOutgoingMail();
    expect(await screen.findByText('Loading failed mail…')).toBeInTheDocument();
  });

  it('says why the list could not be loaded, with a way to try again', async () => {
    api.on('GET /api/mail/failures', failure(500, 'The database is down.'));
    showOutgoingMail();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The failed mail could not be loaded. The database is down.',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
