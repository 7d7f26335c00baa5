import { messages } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { clinicQuery } from '../../../api/clinic';
import { AdminOutlet, SignedInOutlet } from '../../../lib/auth/guards';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { clinic, patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { LoginForm } from './login-form';
import { STAFF_ONLY_MESSAGE } from './login-notice';
import { SignupForm } from './signup-form';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

const loginPage = <LoginForm returnTo="/" initialError="" onSignedIn={async () => {}} />;

/** The app at `at`: the real login page, the dashboard behind the sign-in guard, an admin screen. */
const openAt = (at: string) =>
  renderInPortal(null, {
    at,
    routes: (
      <>
        <Route path="/login" element={loginPage} />
        <Route element={<SignedInOutlet />}>
          <Route path="/dashboard" element={<h1>My Appointments</h1>} />
          <Route element={<AdminOutlet />}>
            <Route path="/dashboard/users" element={<h1>All Users</h1>} />
          </Route>
        </Route>
      </>
    ),
  });

/** Shows once the clinic's details are known. */
function ClinicName() {
  const name = useQuery(clinicQuery).data?.name;
  return name ? <p>{`Clinic: ${name}`}</p> : null;
}

const googleButton = () => screen.queryByRole('button', { name: 'continue with google' });

describe("the login and sign-up pages' Google sign-in", () => {
  it.each([
    ['login', loginPage],
    ['sign-up', <SignupForm key="signup" onSignedUp={async () => {}} />],
  ])('shows on the %s page when the portal offers it', async (_page, form) => {
    api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: true } });
    renderInPortal(form);
    expect(await screen.findByRole('button', { name: 'continue with google' })).toBeVisible();
    expect(screen.getByText('OR')).toBeVisible();
  });

  it.each([
    ['login', loginPage],
    ['sign-up', <SignupForm key="signup" onSignedUp={async () => {}} />],
  ])('is left out of the %s page when the portal has no Google client', async (_page, form) => {
    api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: false } });
    renderInPortal(
      <>
        <ClinicName />
        {form}
      </>,
    );
    // The clinic's details are in: the form is shown without the button or its 'OR'.
    expect(await screen.findByText(`Clinic: ${clinic.name}`)).toBeVisible();
    expect(googleButton()).toBeNull();
    expect(screen.queryByText('OR')).toBeNull();
  });

  it("knows from the served page's own details, with no request, at the first render", () => {
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = 'clinic-data';
    data.textContent = JSON.stringify({ ...clinic, signInWithGoogle: true });
    document.head.append(data);
    try {
      renderInPortal(loginPage);
      expect(googleButton()).toBeVisible();
      expect(api.callsTo('GET /api/clinic')).toHaveLength(0);
    } finally {
      data.remove();
    }
  });
});

describe("the login page's 'Forgot password?'", () => {
  const refusal = 'Developer Authority says: Invalid email or password';

  /** The login page, showing the refusal of a login with a wrong password. */
  async function refusedLogin() {
    api.on('GET /api/clinic', { body: clinic });
    api.on('POST /api/auth/sign-in/email', failure(401, 'Invalid email or password'));
    const { user } = renderInPortal(loginPage);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.type(screen.getByLabelText('Password'), 'not-her-password');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText(refusal)).toBeVisible();
    return user;
  }

  it('clears the refusal of an earlier login once the reset email is sent', async () => {
    api.on('POST /api/auth/request-password-reset', { body: { status: true } });
    const user = await refusedLogin();

    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByText(messages.resetEmailSent)).toBeVisible();
    expect(screen.queryByText(refusal)).toBeNull();
  });

  it('clears the refusal of an earlier login when asked with no email, and says to enter one', async () => {
    const user = await refusedLogin();

    await user.clear(screen.getByLabelText('Email'));
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByText(messages.forgotPasswordNoEmail)).toBeVisible();
    expect(screen.queryByText(refusal)).toBeNull();
    expect(api.callsTo('POST /api/auth/request-password-reset')).toEqual([]);
  });

  it('keeps the alert when the reset request itself is refused', async () => {
    api.on('GET /api/clinic', { body: clinic });
    api.on('POST /api/auth/request-password-reset', failure(429, 'Too many requests'));
    const { user } = renderInPortal(loginPage);
    await user.type(screen.getByLabelText('Email'), 'ann@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(await screen.findByText('Developer Authority says: Too many requests')).toBeVisible();
  });
});

describe('the login page, reached from a screen that sent the visitor away', () => {
  beforeEach(() => {
    api.on('GET /api/clinic', { body: clinic });
  });

  it('tells a patient signed out of a staff-only screen why, in a lasting notice', async () => {
    signIn(api, patient, { admin: false });
    openAt('/dashboard/users');
    const notice = await screen.findByText(STAFF_ONLY_MESSAGE);
    expect(notice).toHaveAttribute('role', 'status');
    expect(api.callsTo('POST /api/auth/sign-out')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Login' })).toBeVisible();
  });

  it('says nothing of staff to a visitor who was simply not signed in', async () => {
    signIn(api, null);
    openAt('/dashboard/users');
    expect(await screen.findByRole('button', { name: 'Login' })).toBeVisible();
    expect(screen.queryByText(STAFF_ONLY_MESSAGE)).toBeNull();
  });

  it('says a verification link followed while signed out had expired', async () => {
    signIn(api, null);
    openAt('/dashboard?verification=email&error=TOKEN_EXPIRED');
    const notice = await screen.findByText(
      'That verification link has expired. Log in, and ask for a new one from your dashboard.',
    );
    expect(notice).toHaveAttribute('role', 'status');
  });
});
