import { addDays, formatMediumDate, todayIn } from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, test } from '../fixtures/test.js';

/**
 * Rescheduling from My Appointments: the patient moves a booking to another day, keeps the same
 * booking, gets an updated calendar event (same UID, SEQUENCE:1) by mail, and the old time is
 * bookable again. The dialog is axe-clean.
 */

async function slotsOn(page: Page, day: string): Promise<string[]> {
  const list = (await (
    await page.request.get(`/api/available?date=${encodeURIComponent(day)}`)
  ).json()) as Array<{ _id: string; slots: string[] }>;
  return list.find((item) => item._id === 'teeth-whitening')?.slots ?? [];
}

test('a patient moves a booking to another day: same booking, updated .ics, the old time free again', async ({
  page,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  const patient = await signUp();
  await page.goto('/dashboard');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const from = addDays(todayIn(clinic.timeZone), 20 + Math.floor(Math.random() * 60));
  const to = addDays(from, 1);
  const slot = (await slotsOn(page, formatMediumDate(from))).at(-1) ?? '';
  const booked = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      treatmentId: 'teeth-whitening',
      date: formatMediumDate(from),
      slot,
      phone: '+1 555 010 7171',
      age: 33,
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const bookingId = (await booked.json()).booking._id as string;
  const confirmation = await mailbox.waitFor(patient.email, /^Appointment confirmed/);
  const uid = /UID:(\S+)/.exec(
    confirmation.attachments.find((part) => part.contentType === 'text/calendar')?.text ?? '',
  )?.[1];
  expect(uid).toContain(bookingId);

  await page.reload();
  await page
    .getByRole('button', { name: `Reschedule Teeth Whitening on ${formatMediumDate(from)}` })
    .click();
  const dialog = page.getByRole('dialog', { name: /^Reschedule/ });
  await dialog.getByLabel('New date').fill(to);
  const newSlot = (await slotsOn(page, formatMediumDate(to)))[0] ?? '';
  await dialog.getByLabel('Time').selectOption(newSlot);
  await expectNoAxeViolations(page, '/dashboard, the reschedule dialog', testInfo);
  await dialog.getByRole('button', { name: 'Move appointment' }).click();
  await expect(page.getByText(`Moved to ${formatMediumDate(to)}, ${newSlot}.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: formatMediumDate(to) })).toContainText(
    newSlot,
  );

  const moved = await mailbox.waitFor(patient.email, /^Appointment moved/);
  const event = (
    moved.attachments.find((part) => part.contentType === 'text/calendar')?.text ?? ''
  ).replace(/\r\n[ \t]/g, '');
  expect(event).toContain(`UID:${uid}`);
  expect(event).toMatch(/^SEQUENCE:1\r?$/m);
  expect(await slotsOn(page, formatMediumDate(from))).toContain(slot);
});
