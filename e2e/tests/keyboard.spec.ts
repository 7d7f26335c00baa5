import { messages } from '@doctors-portal/contract';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test.js';

/**
 * Keyboard acceptance (issue 8): a patient books and pays with the keyboard alone. No mouse
 * click and no `fill`: focus moves with Tab and Shift+Tab, the calendar with the arrow keys,
 * buttons and links answer Enter, and text is typed into whatever has focus. Every element the
 * journey acts on must show a visible focus indicator.
 */

/** What the focused element shows as its focus indicator, or '' when it shows none. */
function focusIndicator(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '';
    const style = getComputedStyle(element);
    if (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) {
      return `outline ${style.outlineWidth} ${style.outlineStyle}`;
    }
    return style.boxShadow !== 'none' ? `box-shadow ${style.boxShadow}` : '';
  });
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, at most `limit` times; then checks
 * that the focus is visible on it.
 */
async function tabTo(page: Page, target: Locator, { back = false, limit = 80 } = {}) {
  const key = back ? 'Shift+Tab' : 'Tab';
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false))
      break;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
  expect(await focusIndicator(page), 'a visible focus indicator').not.toBe('');
}

test('book and pay with the keyboard alone', async ({ page, signUp }) => {
  test.setTimeout(90_000);
  await signUp();
  await page.goto('/appointment');
  const calendar = page.getByRole('grid');
  await expect(calendar).toBeVisible();

  // The calendar's single tab stop is the selected day (the clinic's today).
  const selectedDay = calendar.getByRole('button', { name: /selected/ });
  await tabTo(page, selectedDay);
  // Two weeks on, then a day back: always a future day, whatever the month.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/[?&]date=\d{4}-\d{2}-\d{2}/);
  const iso = new URL(page.url()).searchParams.get('date') as string;
  const medium = new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(
    page.getByRole('heading', { name: `Available Appointments on ${medium}` }),
  ).toBeVisible();

  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Teeth Cleaning', exact: true }) });
  const book = card.getByRole('button', { name: 'Book Appointment' });
  await expect(book).toBeEnabled();
  await tabTo(page, book);
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expect(dialog).toBeVisible();
  // The form opens on the slot picker (daisyUI's customizable <select>): the arrow key opens
  // its list on the first free slot and Enter picks it.
  const slot = dialog.getByLabel('Time slot');
  await expect(slot).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(slot).toBeFocused();
  const chosen = await slot.inputValue();
  expect(chosen).toMatch(/\d{1,2}:\d{2} [AP]M - /);

  await tabTo(page, dialog.getByLabel('Phone number'));
  await page.keyboard.type('+1 555 010 7777');
  await tabTo(page, dialog.getByLabel('Age'));
  await page.keyboard.type('38');
  await tabTo(page, dialog.getByRole('button', { name: 'Submit' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(messages.bookingSet(medium, chosen))).toBeVisible();
  // Focus moves to the confirmation panel: the next step, not back to the card.
  await expect(page.getByRole('region', { name: 'Your visit is booked' })).toBeFocused();

  const dashboard = page.getByRole('link', { name: 'Dashboard', exact: true }).first();
  await tabTo(page, dashboard, { back: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);
  const row = page.getByRole('row').filter({ hasText: 'Teeth Cleaning' });
  await expect(row).toContainText(chosen);

  await tabTo(page, row.getByRole('link', { name: 'Plz Pay' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/payment\/[\w-]+$/);
  await expect(page.getByText('Please Pay for Teeth Cleaning')).toBeVisible();
  const pay = page.getByRole('button', { name: 'Pay', exact: true });
  await expect(pay).toBeEnabled();

  await tabTo(page, page.getByLabel('Card number'));
  await page.keyboard.type('4242 4242 4242 4242');
  await tabTo(page, page.getByLabel('Expiry (MM / YY)'));
  await page.keyboard.type('1234');
  await tabTo(page, page.getByLabel('CVC'));
  await page.keyboard.type('123');
  await tabTo(page, page.getByLabel('Postcode'));
  await page.keyboard.type('10001');
  await tabTo(page, pay);
  await page.keyboard.press('Space');

  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  const paid = page.getByRole('row').filter({ hasText: 'Teeth Cleaning' });
  await expect(paid).toContainText('PAID');
});
