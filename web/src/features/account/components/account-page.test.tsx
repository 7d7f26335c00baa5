import { type IsoDate, messages, WRONG_CURRENT_PASSWORD } from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInOutlet } from '../../../lib/auth/guards';
import { type ApiStub, failure, never, stubApi } from '../../../test/fetch-stub';
import { booking, clinic, onTheWire, patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { AccountPage } from './account-page';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, patient);
});

/** The confirming button of the open question. */
const confirmButton = async () =>
  within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete my account' });

const showAccount = () =>
  renderInPortal(null, {
    at: '/dashboard/account',
    routes: (
      <>
        <Route element={<SignedInOutlet />}>
          <Route path="/dashboard/account" element={<AccountPage />} />
        </Route>
        <Route path="/home" element={<h1>Home page</h1>} />
      </>
    ),
  });

describe('Account', () => {
  it('saves a new name through the identity service', async () => {
    api.on('POST /api/auth/update-user', { body: { status: true } });
    const { user } = showAccount();
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue(patient.name);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Name is Required')).toBeVisible();
    expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(0);
    await user.type(name, 'Jane Newname');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Your name has been saved.')).toBeVisible();
    expect(api.callsTo('POST /api/auth/update-user')[0]?.body).toEqual({ name: 'Jane Newname' });
  });

  it('keeps the focus on Save name while the name is saved, and sends it once', async () => {
    let answer: (reply: { body: unknown }) => void = () => {};
    api.on('POST /api/auth/update-user', () => new Promise((resolve) => (answer = resolve)));
    const { user } = showAccount();
    await user.type(await screen.findByLabelText('Name'), ' Jr');
    const save = screen.getByRole('button', { name: 'Save name' });
    await user.click(save);
    await waitFor(() => expect(save).toHaveAttribute('aria-disabled', 'true'));
    expect(save).toHaveFocus();
    await user.click(save);
    expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(1);
    answer({ body: { status: true } });
    expect(await screen.findByText('Your name has been saved.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Save name' })).toHaveFocus();
  });

  it('keeps the focus on Change password while the password is changed', async () => {
    api.on('POST /api/auth/change-password', never);
    const { user } = showAccount();
    const panel = await screen.findByRole('region', { name: 'Password' });
    await user.type(within(panel).getByLabelText('Current password'), 'old-secret-1');
    await user.type(within(panel).getByLabelText('New password'), 'new-secret-77');
    await user.type(within(panel).getByLabelText('Repeat the new password'), 'new-secret-77');
    const change = within(panel).getByRole('button', { name: 'Change password' });
    await user.click(change);
    await waitFor(() => expect(change).toHaveAttribute('aria-disabled', 'true'));
    expect(change).toHaveFocus();
  });

  it('takes the patient to log in when the session has ended, as every other screen does', async () => {
    api.on('POST /api/auth/update-user', failure(401, 'Unauthorized'));
    const { user } = showAccount();
    const name = await screen.findByLabelText('Name');
    await user.type(name, ' Jr');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByRole('heading', { name: /log ?in/i })).toBeInTheDocument();
    expect(screen.queryByText('Unauthorized')).toBeNull();
  });

  it('saves, checks and clears the phone, inline errors first', async () => {
    signIn(api, { ...patient, phone: '+1 555 010 2222' });
    api.on('POST /api/auth/update-user', { body: { status: true } });
    const { user } = showAccount();
    const phone = await screen.findByLabelText('Phone');
    expect(phone).toHaveValue('+1 555 010 2222');
    await user.clear(phone);
    await user.type(phone, 'call me');
    await user.click(screen.getByRole('button', { name: 'Save phone' }));
    expect(await screen.findByText('Provide a valid Phone Number')).toBeVisible();
    expect(phone).toHaveAccessibleDescription(/Provide a valid Phone Number/);
    expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(0);
    await user.clear(phone);
    await user.type(phone, ' +44 20 7946 0958 ');
    await user.click(screen.getByRole('button', { name: 'Save phone' }));
    expect(await screen.findByText('Your phone has been saved.')).toBeVisible();
    expect(api.callsTo('POST /api/auth/update-user')[0]?.body).toEqual({
      phone: '+44 20 7946 0958',
    });
    await user.clear(phone);
    await user.click(screen.getByRole('button', { name: 'Save phone' }));
    await waitFor(() => expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(2));
    expect(api.callsTo('POST /api/auth/update-user')[1]?.body).toEqual({ phone: null });
  });

  it("shows the identity service's reason when the phone is refused", async () => {
    api.on('POST /api/auth/update-user', failure(400, 'Provide a valid Phone Number'));
    const { user } = showAccount();
    await user.type(await screen.findByLabelText('Phone'), '+1 555 010 2222');
    await user.click(screen.getByRole('button', { name: 'Save phone' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Provide a valid Phone Number');
  });

  it("saves, checks and clears the age, with the booking form's message", async () => {
    signIn(api, { ...patient, age: 41 });
    api.on('POST /api/auth/update-user', { body: { status: true } });
    const { user } = showAccount();
    const age = await screen.findByLabelText('Age');
    expect(age).toHaveValue(41);
    expect(age).toHaveAttribute('type', 'number');
    for (const wrong of ['121', '34.5']) {
      await user.clear(age);
      await user.type(age, wrong);
      await user.click(screen.getByRole('button', { name: 'Save age' }));
      expect(await screen.findByText(messages.ageInvalid)).toBeVisible();
      expect(age).toHaveAccessibleDescription(new RegExp(messages.ageInvalid));
    }
    expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(0);
    await user.clear(age);
    await user.type(age, '42');
    await user.click(screen.getByRole('button', { name: 'Save age' }));
    expect(await screen.findByText('Your age has been saved.')).toBeVisible();
    expect(api.callsTo('POST /api/auth/update-user')[0]?.body).toEqual({ age: 42 });
    expect(screen.queryByText(messages.ageInvalid)).toBeNull();
    await user.clear(age);
    await user.click(screen.getByRole('button', { name: 'Save age' }));
    await waitFor(() => expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(2));
    expect(api.callsTo('POST /api/auth/update-user')[1]?.body).toEqual({ age: null });
  });

  it('starts the age empty when the profile has none', async () => {
    showAccount();
    expect(await screen.findByLabelText('Age')).toHaveValue(null);
    expect(screen.getByLabelText('Phone')).toHaveValue('');
  });

  it('changes the password with the current one, checking the new one first', async () => {
    api.on('POST /api/auth/change-password', { body: { token: null } });
    const { user } = showAccount();
    await screen.findByRole('button', { name: 'Change password' });
    await user.type(screen.getAllByLabelText('Current password')[0] as HTMLElement, 'old-secret-1');
    await user.type(screen.getByLabelText('New password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(api.callsTo('POST /api/auth/change-password')).toHaveLength(0);
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'a-fresh-smile-2031');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a-fresh-smile-2031');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed.')).toBeVisible();
    expect(api.callsTo('POST /api/auth/change-password')[0]?.body).toEqual({
      currentPassword: 'old-secret-1',
      newPassword: 'a-fresh-smile-2031',
      revokeOtherSessions: false,
    });
  });

  it('clears the last refusal when the form is sent again', async () => {
    api.on('POST /api/auth/change-password', failure(400, 'Invalid password'));
    const { user } = showAccount();
    await screen.findByRole('button', { name: 'Change password' });
    await user.type(screen.getAllByLabelText('Current password')[0] as HTMLElement, 'wrong-one');
    await user.type(screen.getByLabelText('New password'), 'a-fresh-smile-2031');
    await user.type(screen.getByLabelText('Repeat the new password'), 'a-fresh-smile-2031');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(WRONG_CURRENT_PASSWORD)).toBeVisible();
    await user.type(screen.getByLabelText('Repeat the new password'), '-typo');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two passwords differ')).toBeVisible();
    expect(screen.queryByText(WRONG_CURRENT_PASSWORD)).toBeNull();
  });

  it('downloads all my data as the file the server names', async () => {
    api.on('GET /api/account/export', {
      body: { profile: { email: patient.email }, bookings: [] },
      headers: { 'content-disposition': 'attachment; filename="doctors-portal-my-data.json"' },
    });
    const created = vi.fn(() => 'blob:my-data');
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { user } = showAccount();
    await user.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(
      await screen.findByText('Your data was downloaded as doctors-portal-my-data.json.'),
    ).toBeVisible();
    expect(created).toHaveBeenCalled();
    expect(click).toHaveBeenCalled();
    expect(api.callsTo('GET /api/account/export')[0]?.headers.get('authorization')).toBe(
      'Bearer token-1',
    );
    click.mockRestore();
  });

  it('asks before deleting the account, and signs out afterwards', async () => {
    api.on('DELETE /api/account', { body: { deletedCount: 1, cancelledBookings: 1 } });
    const { user } = showAccount();
    const deleteButton = await screen.findByRole('button', { name: 'Delete my account' });
    const field = screen.getAllByLabelText('Current password').at(-1) as HTMLElement;
    await user.type(field, 'plaque-free-smile-42');

    // Kept: nothing is sent.
    await user.click(deleteButton);
    expect(await screen.findByRole('heading', { name: /Delete your account\?/ })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Keep my account' }));
    expect(api.callsTo('DELETE /api/account')).toHaveLength(0);

    await user.click(deleteButton);
    await user.click(await confirmButton());
    await waitFor(() => expect(api.callsTo('DELETE /api/account')).toHaveLength(1));
    expect(api.callsTo('DELETE /api/account')[0]?.body).toEqual({
      password: 'plaque-free-smile-42',
      confirmation: 'plaque-free-smile-42',
    });
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeVisible();
    await waitFor(() => expect(api.callsTo('POST /api/auth/sign-out')).toHaveLength(1));
    expect(await screen.findByText('Your account has been deleted.')).toBeVisible();
  });

  it('names the paid visits a removal leaves booked, and how to cancel each', async () => {
    api.on('GET /api/booking', {
      body: [
        booking({ _id: 'refundable', paid: true }),
        booking({
          _id: 'too-late',
          paid: true,
          cancellable: false,
          treatment: 'Cavity Filling',
          date: '2030-01-06' as IsoDate,
          slot: '11:00 AM - 12:00 PM',
        }),
        booking({ _id: 'unpaid' }),
        booking({ _id: 'cancelled', paid: true, status: 'cancelled' }),
        booking({ _id: 'past', paid: true, status: 'completed', date: '2020-01-05' as IsoDate }),
      ].map(onTheWire),
    });
    showAccount();
    const removal = await screen.findByRole('region', { name: 'Delete my account' });
    const note = await within(removal).findByRole('note');
    expect(note).toHaveTextContent('These paid visits stay booked:');
    expect(
      within(note)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Teeth Cleaning, Jan 5, 2030 at 08:00 AM - 08:30 AM: to be refunded, cancel it on My Appointments first.',
      'Cavity Filling, Jan 6, 2030 at 11:00 AM - 12:00 PM: call the clinic to cancel it.',
    ]);
    expect(within(note).getByRole('link', { name: 'My Appointments' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
  });

  it('says nothing of paid visits when none would stay', async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    showAccount();
    const removal = await screen.findByRole('region', { name: 'Delete my account' });
    await waitFor(() => expect(api.callsTo('GET /api/booking')).toHaveLength(1));
    expect(within(removal).queryByRole('note')).toBeNull();
  });

  describe('where Google sign-in is offered', () => {
    const GOOGLE_ONLY_HINT = 'Signed in with Google only? Type DELETE instead.';
    beforeEach(() => {
      api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: true } });
    });

    it('offers a Google-only account a link to set its first password, and DELETE to remove it', async () => {
      api.on('GET /api/auth/list-accounts', { body: [{ providerId: 'google' }] });
      api.on('POST /api/auth/request-password-reset', { body: { status: true } });
      const { user } = showAccount();
      const panel = await screen.findByRole('region', { name: 'Password' });
      const send = await within(panel).findByRole('button', { name: 'Email me a link' });
      expect(within(panel).queryByLabelText('Current password')).toBeNull();
      await user.click(send);
      expect(
        await screen.findByText(`A link to set your password is on its way to ${patient.email}.`),
      ).toBeVisible();
      expect(api.callsTo('POST /api/auth/request-password-reset')[0]?.body).toEqual({
        email: patient.email,
        redirectTo: '/reset-password',
      });

      const removal = screen.getByRole('region', { name: 'Delete my account' });
      const confirmation = within(removal).getByLabelText('Type DELETE to confirm');
      expect(confirmation).toHaveAttribute('type', 'text');
      await user.click(within(removal).getByRole('button', { name: 'Delete my account' }));
      expect(await within(removal).findByText('Please type DELETE to confirm')).toBeVisible();
      expect(screen.queryByText(GOOGLE_ONLY_HINT)).toBeNull();
    });

    it('says why the link could not be sent', async () => {
      api.on('GET /api/auth/list-accounts', { body: [{ providerId: 'google' }] });
      api.on('POST /api/auth/request-password-reset', failure(429, 'Too many requests.'));
      const { user } = showAccount();
      await user.click(await screen.findByRole('button', { name: 'Email me a link' }));
      expect(await screen.findByText('Too many requests.')).toBeVisible();
    });

    it('keeps the password forms for an account that also has a password', async () => {
      api.on('GET /api/auth/list-accounts', {
        body: [{ providerId: 'google' }, { providerId: 'credential' }],
      });
      showAccount();
      await waitFor(() => expect(api.callsTo('GET /api/auth/list-accounts')).toHaveLength(1));
      const panel = await screen.findByRole('region', { name: 'Password' });
      expect(within(panel).getByLabelText('Current password')).toBeVisible();
      await waitFor(() => expect(screen.queryByText(GOOGLE_ONLY_HINT)).toBeNull());
      const removal = screen.getByRole('region', { name: 'Delete my account' });
      expect(within(removal).getByLabelText('Current password')).toHaveAttribute(
        'type',
        'password',
      );
    });

    it('names typing DELETE instead of a password while it cannot tell whether there is one', async () => {
      api.on('GET /api/auth/list-accounts', failure(500, 'Internal Server Error'));
      showAccount();
      expect(await screen.findByText(GOOGLE_ONLY_HINT)).toBeVisible();
      expect(screen.getByRole('button', { name: 'Change password' })).toBeVisible();
    });
  });

  it('neither asks for the sign-in methods nor mentions Google where Google is not offered', async () => {
    api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: false } });
    showAccount();
    await screen.findByRole('button', { name: 'Delete my account' });
    await waitFor(() => expect(api.callsTo('GET /api/clinic')).not.toHaveLength(0));
    expect(screen.queryByText(/Google/)).toBeNull();
    expect(api.callsTo('GET /api/auth/list-accounts')).toHaveLength(0);
  });

  describe('signed in elsewhere', () => {
    it('says when this is the only session', async () => {
      showAccount();
      const panel = await screen.findByRole('region', { name: 'Signed in elsewhere' });
      expect(
        await within(panel).findByText('You are signed in on this device only.'),
      ).toBeVisible();
      expect(within(panel).queryByRole('button')).toBeNull();
    });

    it('counts the other sessions and signs them all out, keeping this one', async () => {
      api.on('GET /api/auth/list-sessions', {
        body: [{ id: 's-1' }, { id: 's-2' }, { id: 's-3' }],
      });
      api.on('POST /api/auth/revoke-other-sessions', { body: { status: true } });
      const { user } = showAccount();
      const panel = await screen.findByRole('region', { name: 'Signed in elsewhere' });
      expect(
        await within(panel).findByText(/You are also signed in on 2 other devices or browsers\./),
      ).toBeVisible();
      await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere else' }));
      expect(
        await screen.findByText('You have been signed out on your other devices.'),
      ).toBeVisible();
      expect(within(panel).getByText('You are signed in on this device only.')).toBeVisible();
      expect(api.callsTo('POST /api/auth/revoke-other-sessions')).toHaveLength(1);
      expect(api.callsTo('POST /api/auth/sign-out')).toHaveLength(0);
    });

    it('names one other session in the singular, and says why signing out failed', async () => {
      api.on('GET /api/auth/list-sessions', { body: [{ id: 's-1' }, { id: 's-2' }] });
      api.on('POST /api/auth/revoke-other-sessions', failure(429, 'Too many requests.'));
      const { user } = showAccount();
      const panel = await screen.findByRole('region', { name: 'Signed in elsewhere' });
      expect(
        await within(panel).findByText(/You are also signed in on 1 other device or browser\./),
      ).toBeVisible();
      await user.click(within(panel).getByRole('button', { name: 'Sign out everywhere else' }));
      expect(await within(panel).findByText('Too many requests.')).toBeVisible();
    });

    it('says so when the sessions cannot be listed', async () => {
      api.on('GET /api/auth/list-sessions', failure(503, 'Service unavailable.'));
      showAccount();
      const panel = await screen.findByRole('region', { name: 'Signed in elsewhere' });
      expect(await within(panel).findByRole('alert')).toHaveTextContent('Service unavailable.');
    });
  });

  it("shows the server's reason when the password is wrong", async () => {
    api.on('DELETE /api/account', failure(403, 'That is not your current password.'));
    const { user } = showAccount();
    await screen.findByRole('button', { name: 'Delete my account' });
    await user.type(screen.getAllByLabelText('Current password').at(-1) as HTMLElement, 'nope');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await user.click(await confirmButton());
    expect(await screen.findByText('That is not your current password.')).toBeVisible();
  });

  it('keeps Delete my account focusable while the account is deleted, and sends it once', async () => {
    api.on('DELETE /api/account', never);
    const { user } = showAccount();
    await screen.findByRole('button', { name: 'Delete my account' });
    await user.type(screen.getAllByLabelText('Current password').at(-1) as HTMLElement, 'secret');
    const remove = screen.getByRole('button', { name: 'Delete my account' });
    await user.click(remove);
    await user.click(await confirmButton());
    const deleting = await screen.findByRole('button', { name: 'Deleting…' });
    // Not `disabled`, which in a browser drops the focus (given back by the dialog) to the page's start.
    expect(deleting).toHaveAttribute('aria-disabled', 'true');
    expect(deleting).toBeEnabled();
    await user.click(deleting);
    expect(api.callsTo('DELETE /api/account')).toHaveLength(1);
  });
});
