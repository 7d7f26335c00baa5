import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionQuery } from '../../../lib/auth/session';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { ResetPasswordForm } from './reset-password-form';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

const showForm = () =>
  renderInPortal(<ResetPasswordForm token="reset-token-1" />, { at: '/reset-password' });

async function choose(user: ReturnType<typeof showForm>['user'], password: string) {
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Repeat the new password'), password);
  await user.click(screen.getByRole('button', { name: 'Save new password' }));
}

describe('Reset password', () => {
  it('sets the new password with the mail’s token and sends the patient to log in', async () => {
    signIn(api, null);
    api.on('POST /api/auth/reset-password', { body: { status: true } });
    const { user } = showForm();
    await choose(user, 'brand-new-brush-77');
    expect(
      await screen.findByText('Your password has been changed. Log in with the new one.'),
    ).toBeVisible();
    // The toast can show before the login page has rendered.
    expect(await screen.findByRole('heading', { name: /^Login page/ })).toBeVisible();
    expect(api.callsTo('POST /api/auth/reset-password')[0]?.body).toEqual({
      token: 'reset-token-1',
      newPassword: 'brand-new-brush-77',
    });
  });

  it('forgets the session of a patient who was signed in, as the reset ended it', async () => {
    signIn(api, patient);
    api.on('POST /api/auth/reset-password', { body: { status: true } });
    const { user, queryClient } = showForm();
    await waitFor(() =>
      expect(queryClient.getQueryData(sessionQuery.queryKey)).toMatchObject({ id: patient.id }),
    );
    await choose(user, 'first-own-brush-31');
    expect(await screen.findByRole('heading', { name: /^Login page/ })).toBeVisible();
    expect(queryClient.getQueryData(sessionQuery.queryKey)).toBeNull();
  });

  it('stays on the form with the reason when the link no longer works', async () => {
    signIn(api, null);
    api.on('POST /api/auth/reset-password', failure(400, 'Invalid token'));
    const { user } = showForm();
    await choose(user, 'brand-new-brush-77');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid token');
    expect(screen.getByRole('button', { name: 'Save new password' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: /^Login page/ })).toBeNull();
  });
});
