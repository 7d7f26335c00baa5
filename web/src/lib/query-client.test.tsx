import { messages } from '@doctors-portal/contract';
import { render, screen } from '@testing-library/react';
import { ToastContainer } from 'react-toastify/unstyled';
import { beforeEach, describe, expect, it } from 'vitest';
import { failure, stubApi } from '../test/fetch-stub';
import { patient } from '../test/fixtures';
import { api, SessionEndedError } from './api-client';
import { ACCESS_TOKEN_KEY } from './auth/access-token';
import { sessionQuery } from './auth/session';
import { createQueryClient } from './query-client';

/** A client as a signed-in patient's app holds it: the session, a token, a cached answer. */
function signedInClient() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(sessionQuery.queryKey, patient);
  queryClient.setQueryData(['admin', 'doctors'], []);
  localStorage.setItem(ACCESS_TOKEN_KEY, 'token-1');
  return queryClient;
}

const signedIn = (queryClient: ReturnType<typeof createQueryClient>) =>
  queryClient.getQueryData(sessionQuery.queryKey) !== null;

beforeEach(() => {
  stubApi({
    'GET /api/doctor': failure(401, 'Please log in first.'),
    'GET /api/users': failure(403, 'Admins only.'),
    'GET /api/booking': failure(403, 'You can only see your own bookings.'),
    'DELETE /api/doctor/:email': failure(401, 'Please log in first.'),
    'POST /api/auth/sign-in/email': failure(401, 'Invalid email or password'),
  });
});

describe('a session the server no longer honours', () => {
  it('ends once a query is answered 401: the token, the cached answers and the user go', async () => {
    const queryClient = signedInClient();
    const read = queryClient.fetchQuery({ queryKey: ['doctors'], queryFn: () => api('/doctor') });
    await expect(read).rejects.toBeInstanceOf(SessionEndedError);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(queryClient.getQueryData(['admin', 'doctors'])).toBeUndefined();
    expect(signedIn(queryClient)).toBe(false);
  });

  it('ends once a change is answered 401', async () => {
    const queryClient = signedInClient();
    const change = queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationFn: () => api('/doctor/ana%40mail.com', { method: 'DELETE' }),
      })
      .execute(undefined);
    await expect(change).rejects.toBeInstanceOf(SessionEndedError);
    expect(signedIn(queryClient)).toBe(false);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  });

  it('says why, once, however many calls found out', async () => {
    render(<ToastContainer />);
    const queryClient = signedInClient();
    const read = (key: string) =>
      queryClient.fetchQuery({ queryKey: [key], queryFn: () => api('/doctor') });
    await Promise.allSettled([read('doctors'), read('doctors-again')]);
    expect(await screen.findByText(messages.sessionEnded)).toBeVisible();
    expect(screen.getAllByText(messages.sessionEnded)).toHaveLength(1);
  });

  it('ends on a 403 only where the call says so (My Appointments)', async () => {
    const queryClient = signedInClient();
    const mine = queryClient.fetchQuery({
      queryKey: ['bookings'],
      queryFn: () => api('/booking?patientMail=x', { sessionEndsOn: [401, 403] }),
    });
    await expect(mine).rejects.toBeInstanceOf(SessionEndedError);
    expect(signedIn(queryClient)).toBe(false);
  });

  it('goes on after a 403 that only refuses one thing (an admin call by a patient)', async () => {
    const queryClient = signedInClient();
    const users = queryClient.fetchQuery({
      queryKey: ['users'],
      queryFn: () => api('/users'),
      retry: false,
    });
    await expect(users).rejects.toMatchObject({ status: 403, message: 'Admins only.' });
    await expect(users).rejects.not.toBeInstanceOf(SessionEndedError);
    expect(signedIn(queryClient)).toBe(true);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('token-1');
  });

  it('is not what a refused sign-in (a public call answered 401) means', async () => {
    const queryClient = signedInClient();
    const signIn = queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationFn: () => api('/auth/sign-in/email', { method: 'POST', body: {}, anonymous: true }),
      })
      .execute(undefined);
    await expect(signIn).rejects.not.toBeInstanceOf(SessionEndedError);
    expect(signedIn(queryClient)).toBe(true);
  });
});
