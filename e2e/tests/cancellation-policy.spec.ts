import { addDays, cancellationPolicy, formatMediumDate, todayIn } from '@doctors-portal/contract';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { bookThroughApi, freeSlots, payByCard } from '../fixtures/booking.js';
import { expect, test } from '../fixtures/test.js';

/**
 * The cancellation policy (issue 16): the payment page states it; a patient cancels a paid
 * booking in time from My Appointments, is told the payment will be refunded, then sees it
 * refunded, gets the mail with the refund, and the time is free again. The question is axe-clean.
 */

const TREATMENT = 'cavity-filling';

test('cancelling a paid booking in time refunds it', async ({
  page,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  const patient = await signUp();
  await page.goto('/dashboard');
  const clinic = (await (await page.request.get('/api/clinic')).json()) as {
    timeZone: string;
    phone: string;
  };
  const day = addDays(todayIn(clinic.timeZone), 10 + Math.floor(Math.random() * 60));
  const slot = (await freeSlots(page, TREATMENT, day)).at(-1) ?? '';
  const bookingId = await bookThroughApi(page, {
    treatmentId: TREATMENT,
    date: day,
    slot,
    phone: '+1 555 010 6161',
    age: 45,
  });

  await page.goto(`/dashboard/payment/${bookingId}`);
  await expect(page.getByText(cancellationPolicy(24, clinic.phone))).toBeVisible();
  await payByCard(page);
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });

  const row = page.getByRole('row').filter({ hasText: formatMediumDate(day) });
  await expect(row).toContainText('PAID');
  await row.getByRole('button', { name: 'Cancel' }).click();
  const question = page.getByRole('dialog', { name: /will be refunded to your card/ });
  await expect(question).toBeVisible();
  await expectNoAxeViolations(page, '/dashboard, cancelling a paid booking', testInfo);
  await question.getByRole('button', { name: 'Cancel appointment' }).click();
  await expect(page.getByText(/is cancelled, and your payment is refunded/)).toBeVisible();
  await expect(row).toContainText('Cancelled by you');
  await expect(row).toContainText('REFUNDED');
  await expect(row).toContainText(/Refund id:?\s*re_demo_\w+/);

  const mail = await mailbox.waitFor(patient.email, /^Appointment cancelled/);
  expect(mail.text).toContain('As you asked');
  expect(mail.text).toMatch(/Refunded:? \$\d+/);
  expect(await freeSlots(page, TREATMENT, day)).toContain(slot);
});
