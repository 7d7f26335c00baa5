import { messages } from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test.js';

/**
 * Booking acceptance (issue 4): book a slot on a future date, see it leave the day's card, find
 * it in My Appointments and in the confirmation mail, meet the spec's conflict, cancel it, and
 * count the treatment grid's columns on a phone, a tablet and a laptop.
 */

/** A day three weeks ahead, as ISO (for the address) and in the spec's medium format. */
function futureDay(daysAhead = 21) {
  const day = new Date(Date.now() + daysAhead * 24 * 60 * 60 * 1000);
  const iso = day.toISOString().slice(0, 10);
  const medium = day.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return { iso, medium };
}

const card = (page: Page, treatment: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: treatment, exact: true }) });

async function readCard(page: Page, treatment: string) {
  const text = (await card(page, treatment).textContent()) ?? '';
  const count = Number(/(\d+) Spaces? available/.exec(text)?.[1]);
  const firstSlot = /(\d{1,2}:\d{2} [AP]M - \d{1,2}:\d{2} [AP]M)/.exec(text)?.[1] ?? '';
  return { count, firstSlot };
}

async function book(page: Page, treatment: string, slot: string) {
  await card(page, treatment).getByRole('button', { name: 'Book Appointment' }).click();
  const dialog = page.getByRole('dialog', { name: treatment });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Time slot').selectOption(slot);
  await dialog.getByLabel('Phone number').fill('+1 555 010 2222');
  await dialog.getByLabel('Age').fill('34');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();
}

test('book a slot, find it in My Appointments and the mail, meet the conflict, then cancel it', async ({
  page,
  signUp,
  mailbox,
}) => {
  test.setTimeout(90_000);
  const patient = await signUp();
  const day = futureDay();
  await page.goto(`/appointment?date=${day.iso}`);
  await expect(
    page.getByRole('heading', { name: `Available Appointments on ${day.medium}` }),
  ).toBeVisible();

  const before = await readCard(page, 'Teeth Cleaning');
  expect(before.count).toBeGreaterThan(1);
  await book(page, 'Teeth Cleaning', before.firstSlot);
  await expect(page.getByText(messages.bookingSet(day.medium, before.firstSlot))).toBeVisible();

  await expect
    .poll(async () => (await readCard(page, 'Teeth Cleaning')).count)
    .toBe(before.count - 1);
  expect((await readCard(page, 'Teeth Cleaning')).firstSlot).not.toBe(before.firstSlot);

  const mail = await mailbox.waitFor(patient.email, /Teeth Cleaning/);
  expect(mail.text).toContain(before.firstSlot);
  expect(mail.attachments.some((part) => /calendar|ics/.test(part.contentType))).toBe(true);

  const second = (await readCard(page, 'Teeth Cleaning')).firstSlot;
  await book(page, 'Teeth Cleaning', second);
  await expect(
    page.getByText(messages.bookingConflict(day.medium, before.firstSlot)),
  ).toBeVisible();

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'My Appointments: 1' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: 'Teeth Cleaning' });
  await expect(row).toContainText(day.medium);
  await expect(row).toContainText(before.firstSlot);
  await expect(row.getByRole('link', { name: 'Plz Pay' })).toHaveAttribute(
    'href',
    /\/dashboard\/payment\/[\w-]+$/,
  );

  await row.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel appointment' }).click();
  await expect(page.getByRole('heading', { name: 'My Appointments: 0' })).toBeVisible();

  await page.goto(`/appointment?date=${day.iso}`);
  await expect.poll(async () => (await readCard(page, 'Teeth Cleaning')).count).toBe(before.count);
});

for (const [width, columns] of [
  [375, 1],
  [768, 2],
  [1280, 3],
] as const) {
  test(`the treatment grid has ${columns} column(s) at ${width} px`, async ({ page, signUp }) => {
    await signUp();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/appointment?date=${futureDay(10).iso}`);
    const grid = page
      .getByRole('list')
      .filter({ has: page.getByRole('heading', { name: 'Teeth Cleaning' }) });
    await expect(grid).toBeVisible();
    const tracks = await grid.evaluate(
      (element) => getComputedStyle(element).gridTemplateColumns.split(' ').length,
    );
    expect(tracks).toBe(columns);
  });
}

test('a patient whose address is not verified is told so in the booking form and can get the mail again', async ({
  page,
  signUp,
  mailbox,
}) => {
  const patient = await signUp(undefined, { verified: false });
  await page.goto(`/appointment?date=${futureDay(12).iso}`);
  await card(page, 'Teeth Cleaning').getByRole('button', { name: 'Book Appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expect(dialog.getByText('Please verify your email address before booking')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled();

  await dialog.getByRole('button', { name: 'Resend verification email' }).click();
  await expect(
    page.getByText(`We sent a new verification link to ${patient.email}.`),
  ).toBeVisible();
  const mail = await mailbox.waitFor(patient.email, /^Verify your email/);
  expect(mailbox.linkIn(mail)).toContain('/api/auth/verify-email');
});
