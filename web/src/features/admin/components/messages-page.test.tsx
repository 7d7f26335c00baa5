import type { ContactMessage } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { MessagesPage } from './messages-page';

function message(overrides: Partial<ContactMessage> = {}): ContactMessage {
  return {
    _id: 'm-1',
    email: 'visitor@example.com',
    subject: 'Question about whitening',
    message: 'How long does it take?\nAnd does it hurt?',
    createdAt: '2031-01-05T15:00:00.000Z',
    read: false,
    ...overrides,
  };
}

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi();
});

const list = (messages: ContactMessage[], unread: number, total = messages.length) => ({
  body: messages,
  headers: { 'x-total-count': String(total), 'x-unread-count': String(unread) },
});

const showMessages = (at = '/dashboard/messages') =>
  renderInPortal(<MessagesPage />, { at, path: '/dashboard/messages' });

describe('the Messages screen', () => {
  it('lists the messages newest first, unread ones marked, with a reply link', async () => {
    api.on(
      'GET /api/contact-messages',
      list([message(), message({ _id: 'm-2', subject: '', message: '', read: true })], 1),
    );
    showMessages();
    expect(await screen.findByRole('heading', { name: 'Messages: 1 unread' })).toBeVisible();
    const items = within(screen.getByRole('list', { name: 'Messages: 1 unread' })).getAllByRole(
      'article',
    );
    expect(items[0]).toHaveTextContent('Question about whitening');
    expect(items[0]).toHaveTextContent('Unread');
    expect(items[0]).toHaveTextContent('Jan 5, 2031, 10:00 AM');
    expect(items[0]).toHaveTextContent('How long does it take? And does it hurt?');
    expect(
      within(items[0] as HTMLElement).getByRole('link', { name: 'visitor@example.com' }),
    ).toHaveAttribute('href', expect.stringMatching(/^mailto:visitor@example.com\?subject=Re/));
    expect(items[1]).toHaveTextContent('(no subject)');
    expect(items[1]).not.toHaveTextContent('Unread');
    expect(
      within(items[1] as HTMLElement).getByRole('button', {
        name: 'Mark as unread: the message from visitor@example.com',
      }),
    ).toBeVisible();
    const call = api.callsTo('GET /api/contact-messages')[0];
    expect(call?.url.searchParams.get('unread')).toBeNull();
    expect(screen.getByText('Showing 1–2 of 2')).toBeVisible();
  });

  it('marks a message read, then reads the list again', async () => {
    api.on('GET /api/contact-messages', list([message()], 1));
    api.on('PATCH /api/contact-messages/:id', (call) => {
      api.on('GET /api/contact-messages', list([message({ read: true })], 0));
      return { body: message({ read: (call.body as { read: boolean }).read }) };
    });
    const { user } = showMessages();
    await user.click(
      await screen.findByRole('button', { name: 'Mark as read: “Question about whitening”' }),
    );

    expect(await screen.findByText('Marked read: “Question about whitening”.')).toBeVisible();
    expect(api.callsTo('PATCH /api/contact-messages/:id')[0]?.body).toEqual({ read: true });
    expect(await screen.findByRole('heading', { name: 'Messages: 0 unread' })).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'Mark as unread: “Question about whitening”' }),
    ).toBeVisible();
  });

  it('gives the focus to the heading when a message marked read leaves the unread ones', async () => {
    api.on('GET /api/contact-messages', list([message()], 1));
    api.on('PATCH /api/contact-messages/:id', () => {
      api.on('GET /api/contact-messages', list([], 0));
      return { body: message({ read: true }) };
    });
    const { user } = showMessages('/dashboard/messages?unread=1');
    await user.click(await screen.findByRole('button', { name: /^Mark as read/ }));
    expect(await screen.findByText('No unread messages')).toBeVisible();
    await vi.waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('heading', { name: 'Messages: 0 unread' }),
      ),
    );
  });

  it('keeps only the unread messages when asked, in the address and the request', async () => {
    api.on('GET /api/contact-messages', list([message()], 1));
    const { user } = showMessages();
    await screen.findByText('Question about whitening');
    const unreadOnly = screen.getByRole('button', { name: 'Unread only' });
    expect(unreadOnly).toHaveAttribute('aria-pressed', 'false');

    api.on('GET /api/contact-messages', list([], 0));
    await user.click(unreadOnly);

    expect(await screen.findByText('No unread messages')).toBeVisible();
    expect(api.callsTo('GET /api/contact-messages').at(-1)?.url.searchParams.get('unread')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: 'Unread only' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('shows the server’s reason when a message cannot be marked', async () => {
    api.on('GET /api/contact-messages', list([message()], 1));
    api.on('PATCH /api/contact-messages/:id', failure(404, 'No such message.'));
    const { user } = showMessages();
    await user.click(await screen.findByRole('button', { name: /^Mark as read/ }));
    expect(await screen.findByText('No such message.')).toBeVisible();
  });

  it('pages above and below a long list, and takes a page past the end to the last one', async () => {
    const many = Array.from({ length: 50 }, (_, index) => message({ _id: `m-${index}` }));
    const pages: Record<string, ContactMessage[]> = { '0': many, '50': many.slice(0, 10) };
    api.on('GET /api/contact-messages', (call) =>
      list(pages[call.url.searchParams.get('offset') ?? ''] ?? [], 60, 60),
    );
    const { user } = showMessages('/dashboard/messages?page=4');

    // Page 4 of 2 holds nothing: the list goes to its last page.
    expect(await screen.findAllByText('Showing 51–60 of 60')).toHaveLength(2);
    expect(api.callsTo('GET /api/contact-messages').at(-1)?.url.searchParams.get('offset')).toBe(
      '50',
    );

    const below = screen.getByRole('navigation', { name: 'Messages pages, below the list' });
    await user.click(within(below).getByRole('button', { name: /Previous/ }));
    expect(await screen.findAllByText('Showing 1–50 of 60')).toHaveLength(2);
    const above = screen.getByRole('navigation', { name: 'Messages pages' });
    expect(within(above).getByRole('button', { name: /Previous/ })).toHaveFocus();
  });
});
