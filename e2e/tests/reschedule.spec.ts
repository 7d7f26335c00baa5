import { addDays, formatMediumDate, todayIn } from '@doctors-portal/contract';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { bookThroughApi, freeSlots } from '../fixtures/booking.js';
import { expect, test } from '../fixtures/test.js';

/**
 * Rescheduling from My Appointments: the patient moves a booking to another day, keeps the same
 * booking, gets an updated calendar event (same UID, SEQUENCE:1) by mail, and the old time is
 * bookable again. The dialog is axe-clean.
 */

const TREATMENT = 'teeth-whitening';

test('a patient moves a booking to another day: same booking, updated .ics, the old time free again', async ({
  page,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  const patient = await signUp();
  await page.goto('/dashboard');
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const from = addDays(todayIn(clinic.timeZone), 20 + Math.floor(Math.random() * 60));
  const to = addDays(from, 1);
  const slot = (await freeSlots(page, TREATMENT, from)).at(-1) ?? '';
  const bookingId = await bookThroughApi(page, {
    treatmentId: TREATMENT,
    date: from,
    slot,
    phone: '+1 555 010 7171',
    age: 33,
  });
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
  const newSlot = (await freeSlots(page, TREATMENT, to))[0] ?? '';
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
  expect(await freeSlots(page, TREATMENT, from)).toContain(slot);
});
