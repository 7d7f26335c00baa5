import fs from 'node:fs';
import { addDays, formatMediumDate, type IsoDate, todayIn } from '@doctors-portal/contract';
import type { APIRequestContext, Page } from '@playwright/test';
import { adminCli } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { baseURL } from '../fixtures/portal.js';
import { expect, expectNoSidewaysScroll, newPatient, test } from '../fixtures/test.js';

/**
 * The back office's schedule: an administrator sees today's booking that a patient has just
 * made, marks the visit arrived then completed, cancels another booking that was paid with the
 * 4242 test card (demo gateway) with a reason, by keyboard; the patient's My Appointments shows
 * it REFUNDED, the mail with the calendar cancellation reaches the SMTP stand-in, and the slot
 * can be booked again; a week is exported as CSV and read; the audit log names the administrator
 * for each action. The screen is axe-clean and fits 375 px without sideways scrolling.
 */

interface Treatment {
  _id: string;
  name: string;
  slots: string[];
}

const bearerOf = async (page: Page) => ({
  authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}`,
});

async function available(request: APIRequestContext, date: IsoDate): Promise<Treatment[]> {
  const response = await request.get(
    `/api/available?date=${encodeURIComponent(formatMediumDate(date))}`,
  );
  expect(response.ok()).toBe(true);
  return (await response.json()) as Treatment[];
}

async function book(page: Page, date: IsoDate, treatmentId: string, slot: string, phone: string) {
  const response = await page.request.post('/api/booking', {
    headers: await bearerOf(page),
    data: { treatmentId, date: formatMediumDate(date), slot, phone, age: 41 },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).booking._id as string;
}

/** Pays a booking with the 4242 test card through the demo gateway, as the payment page does. */
async function payWith4242(page: Page, bookingId: string) {
  const headers = await bearerOf(page);
  const intent = await page.request.post('/api/create-payment-intent', {
    headers,
    data: { bookingId },
  });
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const paid = await page.request.post('/api/demo-gateway/confirm', {
    headers,
    data: {
      clientSecret,
      card: {
        number: '4242 4242 4242 4242',
        expMonth: 12,
        expYear: 2040,
        cvc: '123',
        postalCode: '10001',
      },
      billingDetails: { name: 'Card Holder', email: 'holder@mail.com' },
    },
  });
  const transactionId = (await paid.json()).paymentIntent.id as string;
  const confirmed = await page.request.patch(`/api/booking/${bookingId}`, {
    headers,
    data: { appointmentId: bookingId, transactionId },
  });
  expect(confirmed.status()).toBe(200);
  return transactionId;
}

test('an admin runs the day from the schedule: statuses, a cancellation with a refund, the CSV', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(150_000);
  // The patient, in the test's own browser.
  const patient = await signUp(newPatient('scheduled'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();

  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const today = todayIn(clinic.timeZone);
  const todays = (await available(page.request, today)).find((item) => item.slots.length > 0);
  // The portal under test keeps a clinic where it is morning (fixtures/portal.ts).
  if (!todays) throw new Error('no slot is left today in the clinic’s time zone');
  const todaySlot = todays.slots.at(-1) ?? '';
  const phone = '+1 555 010 7777';
  await book(page, today, todays._id, todaySlot, phone);

  // Another booking, a few days ahead, paid with the 4242 card.
  const later = addDays(today, 3 + Math.floor(Math.random() * 20));
  const cleaning = (await available(page.request, later)).find(
    (item) => item._id === 'teeth-cleaning',
  );
  const laterSlot = cleaning?.slots[0] ?? '';
  expect(laterSlot).not.toBe('');
  const paidId = await book(page, later, 'teeth-cleaning', laterSlot, phone);
  await payWith4242(page, paidId);

  // The administrator, in a browser of their own.
  const office = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.250.${Math.floor(Math.random() * 250)}.9` },
  });
  const admin = newPatient('frontdesk');
  const signedUp = await office.request.post('/api/auth/sign-up/email', {
    data: admin,
    headers: { origin: baseURL },
  });
  expect(signedUp.ok()).toBe(true);
  const verify = await mailbox.waitFor(admin.email, /^Verify your email/);
  expect((await office.request.get(mailbox.linkIn(verify))).ok()).toBe(true);
  await adminCli('grant', admin.email);
  const desk = await office.newPage();

  // Today's schedule, reached from the sidebar's first admin link.
  await desk.goto('/dashboard');
  const adminLinks = desk.getByRole('navigation', { name: 'Dashboard' }).getByRole('link');
  await expect(adminLinks.filter({ hasText: 'Schedule' })).toBeVisible();
  await adminLinks.filter({ hasText: 'Schedule' }).click();
  await expect(desk).toHaveURL(/\/dashboard\/schedule$/);
  await expect(desk.getByRole('heading', { name: 'Schedule', level: 1 })).toBeVisible();
  const row = desk.getByRole('row').filter({ hasText: patient.name });
  await expect(row).toContainText(phone);
  await expect(row).toContainText(todays.name);
  await expect(row).toContainText(todaySlot);
  await expect(row).toContainText('Unpaid');
  await expect(row).toContainText('Booked');
  await expectNoAxeViolations(desk, '/dashboard/schedule', testInfo);
  // On a laptop the day's table fits beside the sidebar, its actions in view.
  await expectNoSidewaysScroll(desk);
  await expect(row.getByRole('button', { name: /^Mark arrived/ })).toBeInViewport();
  // Nor does the table scroll in its own box: no column or button is cut off at its edge.
  const hidden = await row.evaluate((tr) => {
    const box = tr.closest('section');
    return box ? box.scrollWidth - box.clientWidth : Number.NaN;
  });
  expect(hidden).toBe(0);

  // Arrived, then completed: by keyboard.
  await row.getByRole('button', { name: /^Mark arrived/ }).focus();
  await desk.keyboard.press('Enter');
  await expect(row).toContainText('Arrived');
  const completed = row.getByRole('button', { name: /^Mark completed/ });
  await expect(completed).toBeFocused();
  await desk.keyboard.press('Enter');
  await expect(row).toContainText('Completed');
  await expect(row.getByRole('button')).toHaveCount(0);

  // The paid booking's day: cancelled with a reason, by keyboard.
  await desk.goto(`/dashboard/schedule?date=${later}`);
  const paidRow = desk.getByRole('row').filter({ hasText: patient.name });
  await expect(paidRow).toContainText('Paid');
  await paidRow.getByRole('button', { name: /^Cancel booking/ }).focus();
  await desk.keyboard.press('Enter');
  const dialog = desk.getByRole('dialog', { name: new RegExp(`Cancel ${patient.name}`) });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('refunded in full');
  await expectNoAxeViolations(desk, '/dashboard/schedule, cancel dialog', testInfo);
  await expect(dialog.getByLabel('Reason for the patient')).toBeFocused();
  await desk.keyboard.type('The hygienist is ill that day.');
  await desk.keyboard.press('Tab');
  await desk.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel booking' })).toBeFocused();
  await desk.keyboard.press('Enter');
  await expect(desk.getByText(/The payment was refunded \(refund id re_demo_\w+\)/)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(paidRow).toHaveCount(0);
  await desk.getByLabel('Show cancelled').check();
  await expect(paidRow).toContainText('Cancelled');
  await expect(paidRow).toContainText('Refunded');

  // The patient: REFUNDED with the refund id; the mail with the calendar cancellation.
  await page.goto('/dashboard');
  const refundedRow = page.getByRole('row').filter({ hasText: formatMediumDate(later) });
  await expect(refundedRow).toContainText('REFUNDED');
  await expect(refundedRow).toContainText(/Refund id:?\s*re_demo_\w+/);
  await expect(refundedRow).toContainText('The hygienist is ill that day.');
  const mail = await mailbox.waitFor(patient.email, /^Appointment cancelled/);
  expect(mail.text).toContain('The hygienist is ill that day.');
  const calendar = mail.attachments.find((part) => part.contentType === 'text/calendar');
  expect(calendar?.text).toContain('METHOD:CANCEL');
  expect(calendar?.text).toContain(`UID:booking-${paidId}@`);
  expect(calendar?.text).toContain('STATUS:CANCELLED');

  // The slot is free again, and books.
  const again = (await available(page.request, later)).find(
    (item) => item._id === 'teeth-cleaning',
  );
  expect(again?.slots).toContain(laterSlot);
  await book(page, later, 'teeth-cleaning', laterSlot, phone);

  // A week as CSV, read back.
  await desk.goto(`/dashboard/schedule?date=${today}`);
  await desk.getByRole('button', { name: 'Week' }).click();
  await expect(desk.getByText(/^Week of /)).toBeVisible();
  const download = desk.waitForEvent('download');
  await desk.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    /^schedule-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const csv = fs.readFileSync(await file.path(), 'utf8');
  const lines = csv.split('\r\n');
  expect(lines[0]).toBe(
    'Date,Time,Treatment,Patient,Email,Phone,Age,Price,Paid,Transaction id,Status,No-shows,Cancel reason,Refund id',
  );
  const todayLine = lines.find((line) => line.includes(patient.email) && line.startsWith(today));
  expect(todayLine).toContain(`${todays.name},${patient.name},${patient.email},'${phone},41`);
  expect(todayLine).toContain(',Completed,');

  // On paper: the day sheet alone, without the navigation, the sidebar or the buttons.
  await desk.getByRole('button', { name: 'Day', exact: true }).click();
  await desk.emulateMedia({ media: 'print' });
  const sheet = desk.locator('[data-print-sheet]');
  await expect(sheet).toBeVisible();
  await expect(sheet.locator('tr').filter({ hasText: patient.name })).toContainText('Completed');
  await expect(desk.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
  await expect(desk.getByRole('button', { name: 'Download CSV' })).toBeHidden();
  await expect(row).toBeHidden();
  await desk.emulateMedia({ media: 'screen' });
  await expect(sheet).toBeHidden();

  // 375 px: cards, nothing scrolls sideways, still axe-clean.
  await desk.setViewportSize({ width: 375, height: 800 });
  await expect(row).toBeVisible();
  expect(await desk.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoAxeViolations(desk, '/dashboard/schedule at 375 px', testInfo);

  // The audit log names the administrator for each of the day's actions.
  await desk.setViewportSize({ width: 1280, height: 800 });
  await desk.goto(`/dashboard/audit?actor=${encodeURIComponent(admin.email)}&action=booking.*`);
  const entries = desk.getByRole('list', { name: 'Audit log' }).getByRole('listitem');
  for (const action of ['Visit status changed', 'Booking cancelled', 'Payment refunded']) {
    await expect(entries.filter({ hasText: action }).first()).toContainText(`By ${admin.name}`);
  }
  await expect(entries.filter({ hasText: 'Visit status changed' })).toHaveCount(2);
  await office.close();
});
