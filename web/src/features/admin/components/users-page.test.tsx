import { messages, type User } from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { patient, stubAdminApi } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import { UsersPage } from './users-page';

function user(overrides: Partial<User> = {}): User {
  return {
    _id: 'u-2',
    email: 'jane@mail.com',
    displayName: 'Jane Doe',
    photoURL: null,
    emailVerified: true,
    createdAt: '2031-01-05T15:00:00.000Z',
    ...overrides,
  };
}

/** The signed-in admin (the fixtures' patient, made admin), Jane (a patient) and Omar (admin). */
const me = user({ _id: 'u-1', email: patient.email, displayName: patient.name, Role: 'Admin' });
const jane = user();
const omar = user({
  _id: 'u-3',
  email: 'omar@mail.com',
  displayName: 'Omar Haddad',
  Role: 'Admin',
});

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi({
    'GET /api/users': { body: [me, jane, omar], headers: { 'x-total-count': '3' } },
  });
});

/** The screen as the app shows it: behind the signed-in guard. */
const showUsers = () => renderSignedIn(<UsersPage />, { path: '/dashboard/users' });

describe('the Users screen', () => {
  it("names the user each row's button acts on, after the button's own text", async () => {
    showUsers();
    expect(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Remove user, Jane Doe' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Remove Admin, Omar Haddad' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Remove user, Omar Haddad' })).toBeVisible();
    // Nothing in one's own row takes one's role or account.
    expect(screen.queryByRole('button', { name: `Remove Admin, ${patient.name}` })).toBeNull();
    expect(screen.queryByRole('button', { name: `Remove user, ${patient.name}` })).toBeNull();
  });

  it('asks before making an admin, and sends nothing when the admin keeps things as they are', async () => {
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Make Jane Doe (jane@mail.com) an admin?');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('PUT /api/user/admin/:email')).toHaveLength(0);
  });

  it('warns before making an admin of an account whose address is not verified', async () => {
    api.on('GET /api/users', {
      body: [me, user({ emailVerified: false })],
      headers: { 'x-total-count': '2' },
    });
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'jane@mail.com is not verified yet: anyone could have signed up with it, so make sure it is theirs.',
    );
  });

  it('says nothing of verification for a verified address', async () => {
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' }));
    expect(await screen.findByRole('dialog')).not.toHaveTextContent('not verified');
  });

  it("makes an admin once confirmed, with the spec's toast", async () => {
    api.on('PUT /api/user/admin/:email', { body: { modifiedCount: 1 } });
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' }));
    await person.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make Admin' }),
    );
    expect(await screen.findByText(messages.madeAdmin)).toBeVisible();
    expect(api.callsTo('PUT /api/user/admin/:email')[0]?.path).toBe(
      '/api/user/admin/jane%40mail.com',
    );
  });

  it("shows the spec's words when the server refuses a make-admin with 403", async () => {
    api.on(
      'PUT /api/user/admin/:email',
      failure(403, 'Only the clinic’s administrators can do this.'),
    );
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Make Admin, Jane Doe' }));
    await person.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Make Admin' }),
    );
    expect(await screen.findByText(messages.makeAdminForbidden)).toBeVisible();
  });

  it('asks before taking the admin role back, then says it is done', async () => {
    api.on('DELETE /api/user/admin/:email', { body: { modifiedCount: 1 } });
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Remove Admin, Omar Haddad' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Take the admin role from Omar Haddad (omar@mail.com)?');
    await person.click(within(dialog).getByRole('button', { name: 'Remove Admin' }));
    expect(await screen.findByText('Omar Haddad is no longer an admin.')).toBeVisible();
    expect(api.callsTo('DELETE /api/user/admin/:email')[0]?.path).toBe(
      '/api/user/admin/omar%40mail.com',
    );
  });

  it("shows the server's reason when it refuses to take the role (409)", async () => {
    api.on('DELETE /api/user/admin/:email', failure(409, 'The clinic needs at least one admin.'));
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Remove Admin, Omar Haddad' }));
    await person.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove Admin' }),
    );
    expect(await screen.findByText('The clinic needs at least one admin.')).toBeVisible();
  });

  it('keeps the admin when asked to', async () => {
    const { user: person } = showUsers();
    await person.click(await screen.findByRole('button', { name: 'Remove Admin, Omar Haddad' }));
    await person.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Keep admin' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('DELETE /api/user/admin/:email')).toHaveLength(0);
  });
});
