import { messages } from '@doctors-portal/contract';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, logOut, newPatient, test } from '../fixtures/test.js';

/**
 * Accounts acceptance (issue 3): sign-up with email verification over SMTP, logout and login
 * back to where the patient was sent from, password reset, Google sign-in against a local
 * OpenID provider, the spec's validation messages, and the route guards.
 */

test('sign up, verify the email from the mail, log out, and log in back where the patient was', async ({
  page,
  mailbox,
}) => {
  const patient = newPatient('signup');
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Sign Up now!' })).toBeVisible();
  await expect(page).toHaveTitle('Sign up · Doctors Portal');
  await page.getByLabel('Name').fill(patient.name);
  await page.getByLabel('Email').fill(patient.email);
  await page.getByLabel('Password').fill(patient.password);
  await page.getByRole('button', { name: 'Signup' }).click();

  await expect(page.getByText(messages.verificationSent)).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Resend verification email' })).toBeVisible();

  const mail = await mailbox.waitFor(patient.email, /verify/i);
  await page.goto(mailbox.linkIn(mail));
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByText('Your email address is verified.')).toBeVisible();
  await expectNoAxeViolations(page, 'the dashboard saying the address is verified');
  await expect(page.getByRole('button', { name: 'Resend verification email' })).toHaveCount(0);

  await logOut(page);
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

  await page.goto('/dashboard/history');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(patient.email);
  await page.getByLabel('Password').fill(patient.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/history$/);
  await expect(page).toHaveTitle('My History · Doctors Portal');
  // The access token is fetched for the session once signed in, as the page loads.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
});

test('forgot password: the mailed link sets a new password once; the old one stops working', async ({
  page,
  mailbox,
  signUp,
}) => {
  const patient = await signUp();
  await page.context().clearCookies();
  await page.goto('/login');

  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByText(messages.forgotPasswordNoEmail)).toBeVisible();

  await page.getByLabel('Email').fill('nobody-at-all@mail.com');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByText(messages.resetEmailSent)).toBeVisible();

  await page.getByLabel('Email').fill(patient.email);
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByText(messages.resetEmailSent).first()).toBeVisible();
  const link = mailbox.linkIn(await mailbox.waitFor(patient.email, /password/i));

  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-brush-77');
  await page.getByLabel('Repeat the new password').fill('brand-new-brush-77');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(patient.email);
  await page.getByLabel('Password').fill(patient.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: messages.providerErrorPrefix }),
  ).toBeVisible();

  await page.getByLabel('Password').fill('brand-new-brush-77');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  await page.goto(link);
  await expect(page.getByText(/expired or was already used/)).toBeVisible();
});

test('continue with google signs in through the OpenID provider and creates the account', async ({
  page,
  google,
}) => {
  const patient = newPatient('google');
  await google.signInAs({ sub: `g-${patient.email}`, email: patient.email, name: 'Gwen Google' });
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: 'continue with google' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Dashboard', exact: true }).first()).toBeVisible();
});

test('an account made with Google sets its first password from the account page, then logs in with it', async ({
  page,
  google,
  mailbox,
}) => {
  const patient = newPatient('google-password');
  await google.signInAs({ sub: `g-${patient.email}`, email: patient.email, name: 'Gail Google' });
  await page.goto('/login');
  await page.getByRole('button', { name: 'continue with google' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  await page.goto('/dashboard/account');
  const password = page.getByRole('region', { name: 'Password' });
  await expect(password.getByText(/this account has no password/)).toBeVisible();
  await expect(password.getByLabel('Current password')).toHaveCount(0);
  const removal = page.getByRole('region', { name: 'Delete my account' });
  await expect(removal.getByLabel('Type DELETE to confirm')).toBeVisible();
  await expectNoAxeViolations(page, 'the account page of an account made with Google');
  await password.getByRole('button', { name: 'Email me a link' }).click();
  await expect(
    page.getByText(`A link to set your password is on its way to ${patient.email}.`),
  ).toBeVisible();

  await page.goto(mailbox.linkIn(await mailbox.waitFor(patient.email, /password/i)));
  await page.getByLabel('New password', { exact: true }).fill('first-own-brush-31');
  await page.getByLabel('Repeat the new password').fill('first-own-brush-31');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(patient.email);
  await page.getByLabel('Password').fill('first-own-brush-31');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

  await page.goto('/dashboard/account');
  await expect(password.getByLabel('Current password')).toBeVisible();
  await expect(removal.getByLabel('Current password')).toBeVisible();
});

test('the login form words each validation error as the spec does', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login now!' })).toBeVisible();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText(messages.emailRequired)).toBeVisible();
  await expect(page.getByText(messages.passwordRequired)).toBeVisible();

  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Password').fill('12345');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText(messages.emailInvalid)).toBeVisible();
  await expect(page.getByText(messages.passwordTooShort)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create New Account' })).toHaveAttribute(
    'href',
    '/signup',
  );
});

test('the sign-up form words each validation error as the spec does', async ({ page }) => {
  await page.goto('/signup');
  await page.getByRole('button', { name: 'Signup' }).click();
  await expect(page.getByText(messages.nameRequired)).toBeVisible();
  await expect(page.getByText(messages.emailRequired)).toBeVisible();
  await expect(page.getByText(messages.passwordRequired)).toBeVisible();
  await page.getByLabel('Email').fill('ana@mail');
  await page.getByLabel('Password').fill('abc');
  await page.getByRole('button', { name: 'Signup' }).click();
  await expect(page.getByText(messages.emailInvalid)).toBeVisible();
  await expect(page.getByText(messages.passwordTooShort)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Already Have an Account?' })).toHaveAttribute(
    'href',
    '/login',
  );
});

test('a signed-out visitor is sent to login from the dashboard and brought back after', async ({
  page,
  signUp,
}) => {
  const patient = await signUp();
  await page.context().clearCookies();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(patient.email);
  await page.getByLabel('Password').fill(patient.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a patient opening an admin page ends signed out on the login page', async ({
  page,
  signUp,
}) => {
  await signUp();
  await page.goto('/dashboard/users');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('link', { name: 'Login', exact: true }).first()).toBeVisible();
  // The login page says why.
  await expect(
    page.getByText(
      "That page is for the clinic's staff. Sign in with an admin account to open it.",
    ),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'the login page saying why');
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  const session = await page.request.get('/api/auth/get-session');
  expect(await session.json()).toBeNull();
});
