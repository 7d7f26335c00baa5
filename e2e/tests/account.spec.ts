import fs from 'node:fs';
import {
  addDays,
  formatMediumDate,
  type IsoDate,
  parseMediumDate,
  todayIn,
} from '@doctors-portal/contract';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { payByCard } from '../fixtures/booking.js';
import { expect, expectNoSidewaysScroll, test } from '../fixtures/test.js';

/**
 * The patient's own history and account: the History screen keeps the spec's heading, the data
 * download holds the patient's bookings, and deleting the account signs them out and frees the
 * time of their upcoming unpaid visit. Both screens are axe-clean and fit 375 px.
 */
test('a patient downloads their data and deletes their account, which frees their upcoming slot', async ({
  page,
  signUp,
}, testInfo) => {
  test.setTimeout(90_000);
  const patient = await signUp();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const day = formatMediumDate(
    addDays(todayIn(clinic.timeZone), 45 + Math.floor(Math.random() * 40)),
  );
  const slotsOn = async (date = day) => {
    const list = (await (
      await page.request.get(`/api/available?date=${encodeURIComponent(date)}`)
    ).json()) as Array<{ _id: string; slots: string[] }>;
    return list.find((item) => item._id === 'cavity-filling')?.slots ?? [];
  };
  const slot = (await slotsOn()).at(-1) ?? '';
  const booked = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: { treatmentId: 'cavity-filling', date: day, slot, phone: '+1 555 010 5151', age: 61 },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const bookingId = (await booked.json()).booking._id as string;
  expect(await slotsOn()).not.toContain(slot);

  // A visit the next day, paid by card: the removal leaves it booked, and the page says so.
  const nextDay = formatMediumDate(addDays(parseMediumDate(day) as IsoDate, 1));
  const paidSlot = (await slotsOn(nextDay)).at(-1) ?? '';
  const paidBooking = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      treatmentId: 'cavity-filling',
      date: nextDay,
      slot: paidSlot,
      phone: '+1 555 010 5151',
      age: 61,
    },
  });
  expect(paidBooking.status(), await paidBooking.text()).toBe(201);
  await page.goto(`/dashboard/payment/${(await paidBooking.json()).booking._id}`);
  await payByCard(page);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

  await page.goto('/dashboard/history');
  await expect(page.getByRole('heading', { name: 'This is my History!', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard/history', testInfo);

  await page.goto('/dashboard/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  const removal = page.getByRole('region', { name: 'Delete my account' });
  await expect(removal.getByRole('note')).toHaveText(
    `This paid visit stays booked:Cavity Filling, ${nextDay} at ${paidSlot}: to be refunded, cancel it on My Appointments first.`,
  );
  await expectNoAxeViolations(page, '/dashboard/account', testInfo);

  // All my data, as one JSON file.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = JSON.parse(fs.readFileSync(await (await download).path(), 'utf8')) as {
    profile: { email: string };
    bookings: Array<{ id: string }>;
  };
  expect(file.profile.email).toBe(patient.email);
  expect(file.bookings.map((booking) => booking.id)).toContain(bookingId);
  expect(JSON.stringify(file)).not.toContain(patient.password);

  // At 375 px the page reads without sideways scrolling.
  await page.setViewportSize({ width: 375, height: 812 });
  await expectNoSidewaysScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Deleting the account, after a confirmation: signed out, and the unpaid visit's slot is free
  // again; the paid one stays booked.
  await removal.getByLabel('Current password').fill(patient.password);
  await removal.getByRole('button', { name: 'Delete my account' }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Your account has been deleted.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
  await expect.poll(() => slotsOn()).toContain(slot);
  expect(await slotsOn(nextDay)).not.toContain(paidSlot);
});

test('signing out everywhere else from the account page ends the session in another browser', async ({
  page,
  browser,
  baseURL,
  signUp,
}) => {
  const patient = await signUp();
  const laptop = await browser.newContext({ baseURL });
  const signedIn = await laptop.request.post('/api/auth/sign-in/email', {
    data: { email: patient.email, password: patient.password },
    headers: { origin: baseURL ?? '' },
  });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const other = await laptop.newPage();
  await other.goto('/dashboard');
  await expect(other.getByRole('heading', { name: /My Appointments/ })).toBeVisible();

  await page.goto('/dashboard/account');
  const panel = page.getByRole('region', { name: 'Signed in elsewhere' });
  await expect(
    panel.getByText(/You are also signed in on 1 other device or browser\./),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(page.getByText('You have been signed out on your other devices.')).toBeVisible();
  await expect(panel.getByText('You are signed in on this device only.')).toBeVisible();

  await other.reload();
  await expect(other).toHaveURL(/\/login$/);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  await laptop.close();
});
