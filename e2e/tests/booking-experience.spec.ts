import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addDays, formatMediumDate, messages, paths, todayIn } from '@doctors-portal/contract';
import type { Page, TestInfo } from '@playwright/test';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { payByCard } from '../fixtures/booking.js';
import { startWithClockMoved } from '../fixtures/moved-clock.js';
import { clinicTimeZone } from '../fixtures/portal.js';
import { expect, newPatient, test } from '../fixtures/test.js';

/**
 * The booking experience end to end, on a phone and on a laptop: a free day marked on the
 * calendar, a time chip, the confirmation panel, paying from it and the paid state; every
 * screen on the way passes axe (WCAG 2.2 AA with target-size), and the screenshots go into
 * docs/screenshots (copied from e2e/artifacts).
 */

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const WIDTHS = [375, 1280] as const;

async function shoot(page: Page, testInfo: TestInfo, name: string, fullPage = false) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  // A whole page is taken from the top, so the sticky bar is where it belongs.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Whether two elements' boxes overlap on screen. */
async function overlap(page: Page, a: string, b: string): Promise<boolean> {
  return page.evaluate(
    ([first, second]) => {
      const boxes = [first, second].map((selector) =>
        [...document.querySelectorAll(selector as string)].map((node) =>
          node.getBoundingClientRect(),
        ),
      );
      const [many = [], others = []] = boxes;
      return many.some((x) =>
        others.some(
          (y) => x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom,
        ),
      );
    },
    [a, b],
  );
}

for (const width of WIDTHS) {
  test(`at ${width} px: a free day, a time chip, the confirmation panel, paying from it, and the paid state`, async ({
    page,
    signUp,
  }, testInfo) => {
    test.slow();
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await signUp();
    await page.goto('/appointment');
    await expect(page).toHaveTitle('Book an appointment · Doctors Portal');

    // A free day a few days ahead (one for each width, as they run side by side), in the month
    // the calendar shows or the next.
    const today = todayIn(clinicTimeZone);
    const day = addDays(today, width === 375 ? 3 : 4);
    if (day.slice(0, 7) !== today.slice(0, 7)) {
      await page.getByRole('button', { name: /next month/i }).click();
    }
    const dayButton = page.locator(`[data-day="${day}"] button`);
    await expect(dayButton).toBeEnabled();
    await expect(dayButton).not.toHaveAccessibleName(/fully booked|closed/i);
    await dayButton.click();
    const results = page.getByRole('heading', {
      name: `Available Appointments on ${formatMediumDate(day)}`,
    });
    await expect(results).toBeVisible();
    // On a phone the results are brought into view.
    if (width === 375) await expect(results).toBeInViewport();

    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Teeth Cleaning', exact: true }) });
    const chips = card.getByRole('list', { name: 'Free times for Teeth Cleaning' });
    const chip = chips.getByRole('button').nth(1);
    const slot = ((await chip.getAttribute('aria-label')) ?? '').split(',')[0] ?? '';
    expect(slot).toMatch(/^\d{1,2}:\d{2} [AP]M - \d{1,2}:\d{2} [AP]M$/);
    await card.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, `booking page with time chips at ${width} px`, testInfo);
    // The whole page on a laptop (calendar and cards); the cards' times on a phone.
    await shoot(page, testInfo, `booking-${width}`, width === 1280);

    await chip.click();
    const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
    await expect(dialog.getByLabel('Time slot')).toHaveValue(slot);
    await dialog.getByLabel('Phone number').fill('+1 555 010 2222');
    await dialog.getByLabel('Age').fill('34');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(messages.bookingSet(formatMediumDate(day), slot))).toBeVisible();
    // Toasts start below the navigation bar: Logout and the menu toggle stay in reach.
    expect(await overlap(page, '.Toastify__toast', 'header')).toBe(false);

    const panel = page.getByRole('region', { name: 'Your visit is booked' });
    await expect(panel).toBeFocused();
    await expect(panel).toContainText(slot);
    await expect(panel).toContainText(formatMediumDate(day));
    await expect(panel).toContainText(/cancel free of charge until/);
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Add to calendar' }).click();
    expect((await download).suggestedFilename()).toBe('appointment.ics');
    await expectNoAxeViolations(page, `confirmation panel at ${width} px`, testInfo);
    await shoot(page, testInfo, `confirmation-${width}`);

    await panel.getByRole('link', { name: 'Pay now' }).click();
    await expect(page).toHaveTitle('Payment · Doctors Portal');
    await payByCard(page);
    const confirmed = page.getByRole('heading', { name: messages.paymentConfirmed });
    await expect(confirmed).toBeVisible();
    await expect(page.getByLabel('Card number')).toHaveCount(0);
    expect(await overlap(page, '.Toastify__toast', '#payment-confirmed')).toBe(false);
    await expectNoAxeViolations(page, `payment confirmed at ${width} px`, testInfo);

    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
    await expect(page).toHaveTitle('My Appointments · Doctors Portal');
    const row = page.getByRole('row').filter({ hasText: 'Teeth Cleaning' });
    await expect(row).toContainText('PAID');
    await expect(row.getByText(/^pi_demo_\w+$/)).toBeVisible();
    expect(await overlap(page, '.Toastify__toast', 'main table')).toBe(false);
    await expectNoAxeViolations(page, `My Appointments, paid, at ${width} px`, testInfo);
    // The screenshot shows the list, not the payment's toasts over the banner.
    for (const close of await page.locator('.Toastify__toast').getByRole('button').all()) {
      await close.click();
    }
    await expect(page.locator('.Toastify__toast')).toHaveCount(0);
    await shoot(page, testInfo, `my-appointments-${width}`);
  });
}

test('with no Google client configured, neither login nor sign-up offers Google', async ({
  page,
}) => {
  // The portal under test is configured with the Google stand-in; a second instance on the
  // same database is not.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'continue with google' })).toBeVisible();
  const plain = await startWithClockMoved(0, 2);
  try {
    for (const screen of ['login', 'signup']) {
      await page.goto(`${plain.url}/${screen}`);
      // The app takes the drawn page over first: stopping the instance while it still loads
      // the screen's module fails that import in the page.
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('button', { name: /^(Login|Signup)$/ })).toBeVisible();
      await expect(page.getByRole('button', { name: /google/i })).toHaveCount(0);
    }
  } finally {
    await plain.stop();
  }
});

test('every route has a document title of its own', async ({ page, browser, mailbox }) => {
  // Some twenty screens, each loaded and read: over 30 s on a busy two-core machine.
  test.setTimeout(90_000);
  const desk = await adminDesk(browser, mailbox, newPatient('titles'), 71);
  const titles = new Map<string, string>();
  // Where a signed-in visitor is not kept (login, sign-up), a signed-out page goes.
  const signedOut = new Set<string>([paths.login, paths.signup, paths.resetPassword]);
  for (const [name, route] of Object.entries(paths)) {
    // '/home' is the home page under its other address, with the same title as '/'.
    if (typeof route !== 'string' || name === 'home') continue;
    const tab = signedOut.has(route) ? page : desk;
    await tab.goto(route);
    await expect(tab).toHaveTitle(/^Doctors Portal · .+| · Doctors Portal$/);
    await expect(tab.locator('main h1, main h2').first()).toBeVisible();
    titles.set(route, await tab.title());
  }
  await desk.goto(paths.payment('00000000-0000-4000-8000-000000000000'));
  await expect(desk).toHaveTitle('Payment · Doctors Portal');
  await desk.goto('/no-such-page');
  await expect(desk).toHaveTitle('Page not found · Doctors Portal');
  expect(new Set(titles.values()).size, [...titles].join('\n')).toBe(titles.size);
  await desk.context().close();
});

test("a service's 'get the service' opens the booking page on that treatment; the location card opens a map", async ({
  page,
  signUp,
}) => {
  await signUp();
  await page.goto('/');
  const map = page.getByRole('link', { name: /\(opens a map in a new tab\)$/ });
  await expect(map).toHaveAttribute(
    'href',
    /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
  );
  await page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Teeth Whitening' }) })
    .getByRole('link', { name: 'get the service' })
    .click();
  await expect(page).toHaveURL(/\/appointment\?treatment=Teeth%20Whitening$/);
  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Teeth Whitening', exact: true }) });
  await expect(card.getByText('The service you chose')).toBeVisible();
  await expect(card).toBeInViewport();
});

test('on a phone, one menu toggle opens the site’s links and the dashboard’s together', async ({
  page,
  signUp,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signUp();
  await page.goto('/dashboard/history');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('button', { name: /menu/i })).toHaveCount(1);
  await banner.getByRole('button', { name: 'Open menu' }).click();
  await expect(banner.getByRole('link', { name: 'Appointment' })).toBeVisible();
  const dashboard = banner.getByRole('navigation', { name: 'Dashboard' });
  await expect(dashboard.getByRole('link', { name: 'My Review' })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expectNoAxeViolations(page, 'the one mobile menu on a dashboard page', testInfo);
  await dashboard.getByRole('link', { name: 'My Review' }).click();
  await expect(page).toHaveURL(/\/dashboard\/review$/);
  await expect(dashboard).toBeHidden();
});
