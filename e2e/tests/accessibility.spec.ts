import { messages } from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import { adminCli } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, newPatient, test } from '../fixtures/test.js';

/**
 * Accessibility acceptance (issue 8): axe-core with the WCAG 2.0/2.1/2.2 A and AA rules and
 * `target-size` finds no violation on any screen, signed out, as a patient and as an admin,
 * including the open booking modal, the payment page and every form showing its errors.
 * See docs/accessibility.md for what axe checks and what it cannot.
 */

/** A day `daysAhead` from now, as ISO (for the address) and in the spec's medium format. */
function futureDay(daysAhead: number) {
  const day = new Date(Date.now() + daysAhead * 24 * 60 * 60 * 1000);
  return {
    iso: day.toISOString().slice(0, 10),
    medium: day.toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  };
}

/** The access token the web app got for the signed-in user (it fetches one on any page). */
async function accessToken(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
  return (await page.evaluate(() => localStorage.getItem('accessToken'))) as string;
}

/** Books the treatment's first free slot `daysAhead` from now through the API; its id. */
async function bookThroughApi(page: Page, treatmentId: string, daysAhead: number) {
  const { medium: date } = futureDay(daysAhead);
  const token = await accessToken(page);
  const available = await (
    await page.request.get(`/api/available?date=${encodeURIComponent(date)}`)
  ).json();
  const treatment = available.find((item: { _id: string }) => item._id === treatmentId);
  const response = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: { treatmentId, date, slot: treatment.slots[0], phone: '+1 555 010 4444', age: 29 },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).booking._id as string;
}

/** A 1×1 PNG, enough for the portal to store and re-encode as a doctor's photo. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('signed out', () => {
  const screens: Array<{ path: string; ready: (page: Page) => Promise<void> }> = [
    {
      path: '/',
      ready: (page) =>
        expect(page.getByRole('heading', { name: 'Your New Smile Starts Here!' })).toBeVisible(),
    },
    {
      path: '/home',
      ready: (page) =>
        expect(page.getByRole('heading', { name: 'What Our Patients Says' })).toBeVisible(),
    },
    {
      // Login required: the visitor lands on the login page.
      path: '/appointment',
      ready: async (page) => {
        await expect(page).toHaveURL(/\/login$/);
        await expect(page.getByRole('heading', { name: 'Login now!' })).toBeVisible();
      },
    },
    { path: '/about', ready: (page) => expect(page.getByRole('heading').first()).toBeVisible() },
    {
      path: '/who-we-are',
      ready: (page) => expect(page.getByRole('heading').first()).toBeVisible(),
    },
    {
      path: '/login',
      ready: (page) => expect(page.getByRole('heading', { name: 'Login now!' })).toBeVisible(),
    },
    {
      path: '/signup',
      ready: (page) => expect(page.getByRole('heading', { name: 'Sign Up now!' })).toBeVisible(),
    },
    {
      path: '/reset-password?token=x',
      ready: (page) => expect(page.getByRole('heading').first()).toBeVisible(),
    },
    {
      path: '/no-such-page',
      ready: (page) => expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible(),
    },
  ];

  for (const screen of screens) {
    test(`${screen.path} has no axe violations`, async ({ page }, testInfo) => {
      await page.goto(screen.path);
      await screen.ready(page);
      await page.waitForLoadState('networkidle');
      await expectNoAxeViolations(page, screen.path, testInfo);
    });
  }

  test('the landing page on a phone, with the menu open', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page, '/ at 375 px', testInfo);
    await page.getByRole('button', { name: /^(open )?menu$/i }).click();
    await expect(page.getByRole('link', { name: 'About', exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page, '/ at 375 px, menu open', testInfo);
  });

  test('the login form showing its errors', async ({ page }, testInfo) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page.getByText(messages.emailRequired)).toBeVisible();
    await expectNoAxeViolations(page, '/login, empty fields', testInfo);

    await page.getByLabel('Email').fill('nobody-here@mail.com');
    await page.getByLabel('Password').fill('not-the-password-1');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: messages.providerErrorPrefix }),
    ).toBeVisible();
    await expectNoAxeViolations(page, '/login, refused sign-in', testInfo);
  });

  test('the sign-up form showing its errors', async ({ page }, testInfo) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Signup' }).click();
    await expect(page.getByText(messages.nameRequired)).toBeVisible();
    await expectNoAxeViolations(page, '/signup, empty fields', testInfo);
    await page.getByLabel('Email').fill('ana@mail');
    await page.getByLabel('Password').fill('abc');
    await page.getByRole('button', { name: 'Signup' }).click();
    await expect(page.getByText(messages.passwordTooShort)).toBeVisible();
    await expectNoAxeViolations(page, '/signup, invalid fields', testInfo);
  });
});

test('a patient: the calendar, the open booking modal and its errors', async ({
  page,
  signUp,
}, testInfo) => {
  test.setTimeout(90_000);
  await signUp();
  const day = futureDay(24);

  await page.goto(`/appointment?date=${day.iso}`);
  await expect(
    page.getByRole('heading', { name: `Available Appointments on ${day.medium}` }),
  ).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
  ).toBeEnabled();
  await expectNoAxeViolations(page, '/appointment', testInfo);

  await page.getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'booking modal', testInfo);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByRole('alert').first()).toBeVisible();
  await expectNoAxeViolations(page, 'booking modal, empty fields', testInfo);
});

test('a patient: My Appointments, review, history, and the payment page with its errors', async ({
  page,
  signUp,
}, testInfo) => {
  test.setTimeout(90_000);
  await signUp();
  await page.goto('/dashboard');
  const booking = await bookThroughApi(page, 'teeth-cleaning', 24);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Appointments: 1' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Plz Pay' })).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard', testInfo);

  for (const [path, title] of [
    ['/dashboard/review', 'My Review'],
    ['/dashboard/history', /History/],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: title }).first()).toBeVisible();
    await expectNoAxeViolations(page, path, testInfo);
  }

  await page.goto(`/dashboard/payment/${booking}`);
  await expect(page.getByText('Please Pay for Teeth Cleaning')).toBeVisible();
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();
  await expectNoAxeViolations(page, '/dashboard/payment/{id}', testInfo);

  await pay.click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectNoAxeViolations(page, 'payment, incomplete card', testInfo);

  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Postcode').fill('10001');
  await pay.click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your card was declined.' }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'payment, declined card', testInfo);
});

test('an admin: users, add doctor and its errors, manage doctors', async ({
  page,
  signUp,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = await signUp(newPatient('a11yadmin'));
  await adminCli('grant', admin.email);

  await page.goto('/dashboard/users');
  await expect(page.getByRole('row').filter({ hasText: admin.email })).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard/users', testInfo);

  await page.goto('/dashboard/add-doctor');
  await expect(page.getByRole('button', { name: 'Add Doctor' })).toBeVisible();
  await expect(page.getByLabel('Select Specialty')).toBeEnabled();
  await expectNoAxeViolations(page, '/dashboard/add-doctor', testInfo);
  await page.getByRole('button', { name: 'Add Doctor' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard/add-doctor, empty fields', testInfo);

  // A doctor to manage, added through the API.
  const token = await accessToken(page);
  const upload = await page.request.post('/api/image', {
    headers: { authorization: `Bearer ${token}` },
    multipart: { image: { name: 'doctor.png', mimeType: 'image/png', buffer: PIXEL_PNG } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const image = (await upload.json()).data.url as string;
  const doctor = await page.request.post('/api/doctor', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: 'Dr. Iris Access',
      email: `iris.${Date.now()}@clinic.com`,
      specialty: 'Teeth Cleaning',
      image,
    },
  });
  expect(doctor.status(), await doctor.text()).toBe(201);

  await page.goto('/dashboard/manage-doctor');
  await expect(page.getByRole('row').filter({ hasText: 'Dr. Iris Access' })).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard/manage-doctor', testInfo);
});
