import { screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure, never, stubApi } from '../../test/fetch-stub';
import { patient, signIn } from '../../test/fixtures';
import { renderInPortal } from '../../test/render';
import { ACCESS_TOKEN_KEY } from './access-token';
import { AdminOutlet, SignedInOutlet } from './guards';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

/** /dashboard for signed-in users, /dashboard/users for admins only. */
const openAt = (at: string) =>
  renderInPortal(null, {
    at,
    routes: (
      <Route element={<SignedInOutlet />}>
        <Route path="/dashboard" element={<h1>My Appointments</h1>} />
        <Route element={<AdminOutlet />}>
          <Route path="/dashboard/users" element={<h1>All Users</h1>} />
        </Route>
      </Route>
    ),
  });

describe('a screen that needs a signed-in user', () => {
  it('shows a loader while the sign-in is being checked', async () => {
    api.on('GET /api/auth/get-session', never);
    openAt('/dashboard');
    expect(await screen.findByRole('status')).toHaveTextContent('Checking your sign-in…');
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor to /login, remembering where they were going', async () => {
    signIn(api, null);
    openAt('/dashboard?page=2');
    expect(
      await screen.findByRole('heading', { name: 'Login page, back to /dashboard?page=2' }),
    ).toBeInTheDocument();
  });

  it('shows the screen to a signed-in user, once their access token is issued', async () => {
    signIn(api, patient);
    openAt('/dashboard');
    expect(await screen.findByRole('heading', { name: 'My Appointments' })).toBeInTheDocument();
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('token-1');
  });

  it('treats a session whose token cannot be issued as signed out', async () => {
    signIn(api, patient);
    api.on('PUT /api/user/:email', failure(401, 'Please log in first.'));
    openAt('/dashboard');
    expect(
      await screen.findByRole('heading', { name: 'Login page, back to /dashboard' }),
    ).toBeInTheDocument();
  });
});

describe('an admin screen', () => {
  it('shows a loader until the admin check answers', async () => {
    signIn(api, patient);
    api.on('GET /api/admin/:email', never);
    openAt('/dashboard/users');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Checking your access…'),
    );
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it('shows the screen to an admin', async () => {
    signIn(api, patient, { admin: true });
    openAt('/dashboard/users');
    expect(await screen.findByRole('heading', { name: 'All Users' })).toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/:email')[0]?.headers.get('authorization')).toBe(
      'Bearer token-1',
    );
  });

  it('signs a patient out and sends them to /login, remembering the admin screen', async () => {
    signIn(api, patient, { admin: false });
    openAt('/dashboard/users');
    expect(
      await screen.findByRole('heading', { name: 'Login page, back to /dashboard/users' }),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/sign-out')).toHaveLength(1);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('sends a signed-out visitor to /login', async () => {
    signIn(api, null);
    openAt('/dashboard/users');
    expect(
      await screen.findByRole('heading', { name: 'Login page, back to /dashboard/users' }),
    ).toBeInTheDocument();
    expect(api.callsTo('GET /api/admin/:email')).toHaveLength(0);
  });
});
