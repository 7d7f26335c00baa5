import { messages } from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test.js';

/**
 * Payments acceptance (issue 5) with the offline demo gateway: a booking paid with 4242… shows
 * the spec's notices in order and becomes PAID with its transaction id; one paid with the
 * declined test card keeps 'Plz Pay'.
 */

/** Books `treatment` through the API on a day four weeks ahead; answers the booking's id. */
async function bookThroughApi(page: Page, treatmentId: string) {
  const day = new Date(Date.now() + 28 * 24 * 60 * 60 * 1000);
  const date = day.toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const available = await (
    await page.request.get(`/api/available?date=${encodeURIComponent(date)}`)
  ).json();
  const treatment = available.find((item: { _id: string }) => item._id === treatmentId);
  const response = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: { treatmentId, date, slot: treatment.slots[0], phone: '+1 555 010 3333', age: 41 },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).booking._id as string;
}

async function payWith(page: Page, number: string) {
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Postcode').fill('10001');
  await pay.click();
}

test('pay a booking by card: the notices in order, then PAID with its transaction id', async ({
  page,
  signUp,
}) => {
  test.setTimeout(90_000);
  await signUp();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  const paid = await bookThroughApi(page, 'teeth-cleaning');
  const declined = await bookThroughApi(page, 'cavity-filling');

  await page.goto(`/dashboard/payment/${paid}`);
  await expect(page.getByText('Please Pay for Teeth Cleaning')).toBeVisible();
  await expect(page.getByText('Pay: $80')).toBeVisible();
  await expect(page.getByText(/demo gateway/i).first()).toBeVisible();

  const notices: string[] = [];
  for (const text of [messages.paymentComplete, messages.paymentConfirmed, messages.paymentSaved]) {
    void page
      .getByText(text)
      .first()
      .waitFor()
      .then(() => notices.push(text));
  }
  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  expect(notices).toEqual([
    messages.paymentComplete,
    messages.paymentConfirmed,
    messages.paymentSaved,
  ]);

  const paidRow = page.getByRole('row').filter({ hasText: 'Teeth Cleaning' });
  await expect(paidRow).toContainText('PAID');
  await expect(paidRow).toContainText(/Transaction id:?\s*pi_demo_\w+/);

  await page.goto(`/dashboard/payment/${declined}`);
  await payWith(page, '4000 0000 0000 0002');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Your card was declined.' }),
  ).toBeVisible();
  await page.goto('/dashboard');
  const declinedRow = page.getByRole('row').filter({ hasText: 'Cavity Filling' });
  await expect(declinedRow.getByRole('link', { name: 'Plz Pay' })).toBeVisible();
});
