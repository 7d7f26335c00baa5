import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures/test.js';

/**
 * Foundation acceptance (issue 2): the landing page of spec section 1, the navigation bar and
 * the home-page anchors of section 2, every client route as a deep link, responsive screenshots
 * and the production server's headers.
 */

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches text that contains `text` exactly as written (case-sensitive). */
const spec = (text: string) => new RegExp(escapeRegExp(text));

/** A heading whose accessible name is the spec's text, exactly as written (case-sensitive). */
const heading = (scope: Page | Locator, text: string) =>
  scope.getByRole('heading', { name: new RegExp(`^${escapeRegExp(text)}$`) });

/** The top navigation bar (the footer has link lists of its own). */
const mainNav = (page: Page) =>
  page
    .getByRole('navigation')
    .filter({ has: page.getByRole('link', { name: 'Home', exact: true, includeHidden: true }) })
    .first();

/** A call-to-action that may be a link or a button. */
const action = (scope: Locator, name: RegExp) =>
  scope.getByRole('link', { name }).or(scope.getByRole('button', { name }));

/** The element carrying a home-page anchor (`id`), i.e. the anchored section. */
const anchor = (page: Page, id: string) => page.locator(`[id="${id}"]`);

/**
 * The cards of a section: whatever list-like role holds exactly `count` items, so the test does
 * not dictate markup (articles, list items, figures or blockquotes all count).
 */
async function expectCards(section: Locator, count: number) {
  const roles = ['article', 'listitem', 'figure', 'blockquote'] as const;
  await expect
    .poll(
      async () => {
        const counts = await Promise.all(roles.map((role) => section.getByRole(role).count()));
        return counts.includes(count) ? count : counts;
      },
      { message: `${count} cards (articles, list items, figures or blockquotes)` },
    )
    .toBe(count);
}

test.describe('landing page (spec section 1)', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });

  test('hero and info strip', async ({ page }) => {
    await expect(heading(page, 'Your New Smile Starts Here!')).toBeVisible();
    await expect(action(page.locator('main'), /get started/i).first()).toBeVisible();
    await expect(
      page.locator('main').getByText(spec('Sat - Fri, 10:00 AM to 10:00 PM')).first(),
    ).toBeVisible();
  });

  test("'Services We Provide' with its three services and their buttons", async ({ page }) => {
    const title = heading(page, 'Services We Provide');
    await expect(title).toBeVisible();
    // The page's main content: the footer repeats the service names as links.
    const section = page.locator('main');
    for (const service of ['Fluoride Treatment', 'Cavity Filling', 'Teeth Whitening']) {
      await expect(section.getByText(service, { exact: true }).first()).toBeVisible();
    }
    const buttons = action(section, /get the service/i);
    await expect(buttons).toHaveCount(3);
    for (const button of await buttons.all()) await expect(button).toBeVisible();
  });

  test("'Make an Appointment Today' and the second hero", async ({ page }) => {
    await expect(heading(page, 'Make an Appointment Today')).toBeVisible();
    await expect(anchor(page, 'appointment')).toContainText('Make an Appointment Today');
    await expect(heading(page, 'Exceptional Dental Care, on Your Terms!')).toBeVisible();
  });

  test("'What Our Patients Says' with three testimonial cards", async ({ page }) => {
    await expect(heading(page, 'What Our Patients Says')).toBeVisible();
    const review = anchor(page, 'review');
    await expect(review).toContainText('What Our Patients Says');
    await expectCards(review, 3);
  });

  test("'Contact Us' form: email is required and of type email", async ({ page }) => {
    const contact = anchor(page, 'who-we-are');
    await expect(heading(contact, 'Contact Us')).toBeVisible();
    const email = contact.getByRole('textbox', { name: /email/i });
    await expect(email).toBeVisible();
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveJSProperty('required', true);
    await expect(contact.getByRole('button').first()).toBeVisible();
  });

  test('footer: Services, Company and Legal lists and this year’s copyright line', async ({
    page,
  }) => {
    const footer = page.getByRole('contentinfo');
    await expect(footer).toBeVisible();
    for (const title of ['Services', 'Company', 'Legal']) {
      await expect(footer.getByText(title, { exact: true }).first()).toBeVisible();
    }
    const year = String(new Date().getFullYear());
    await expect(
      footer
        .getByText(/(©|copyright)/i)
        .filter({ hasText: year })
        .first(),
    ).toBeVisible();
  });
});

test.describe('navigation bar (spec section 2)', () => {
  const links: Array<{ name: string; url: RegExp; section?: string }> = [
    { name: 'Home', url: /^\/home$/ },
    { name: 'Review', url: /^\/#review$/, section: 'review' },
    { name: 'Contact Us', url: /^\/#who-we-are$/, section: 'who-we-are' },
    // Login required: a signed-out visitor is sent on to /login (protected routes, spec 2).
    { name: 'Appointment', url: /^\/(appointment|login)$/ },
    { name: 'About', url: /^\/about$/ },
    { name: 'Login', url: /^\/login$/ },
  ];
  const hrefs: Record<string, string> = {
    Home: '/home',
    Review: '/#review',
    'Contact Us': '/#who-we-are',
    Appointment: '/appointment',
    About: '/about',
    Login: '/login',
  };
  const where = (page: Page) => {
    const url = new URL(page.url());
    return `${url.pathname}${url.hash}`;
  };

  test('has exactly the spec’s links when signed out', async ({ page }) => {
    await page.goto('/');
    const nav = mainNav(page);
    for (const [name, href] of Object.entries(hrefs)) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Logout', exact: true })).toHaveCount(0);
  });

  for (const link of links) {
    test(`${link.name} lands on ${hrefs[link.name]}`, async ({ page }) => {
      await page.goto('/about');
      await mainNav(page).getByRole('link', { name: link.name, exact: true }).click();
      await expect.poll(() => where(page)).toMatch(link.url);
      if (link.section) await expect(anchor(page, link.section)).toBeInViewport();
    });
  }

  test('the brand link goes to /', async ({ page }) => {
    await page.goto('/about');
    await mainNav(page).getByRole('link', { name: 'Doctors Portal' }).click();
    await expect.poll(() => where(page)).toBe('/');
  });

  test('on a phone the links sit behind the menu toggle', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    const nav = mainNav(page);
    const about = page.getByRole('link', { name: 'About', exact: true }).first();
    await expect(about).toBeHidden();
    await page.getByRole('button', { name: /^(open )?menu$/i }).click();
    await expect(nav.getByRole('link', { name: 'About', exact: true })).toBeVisible();
    await nav.getByRole('link', { name: 'About', exact: true }).click();
    await expect.poll(() => where(page)).toBe('/about');
  });
});

test.describe('home-page anchors', () => {
  for (const id of ['review', 'who-we-are']) {
    test(`/#${id} scrolls to its section`, async ({ page }) => {
      await page.goto(`/#${id}`);
      await expect(anchor(page, id)).toBeInViewport();
    });
  }
});

test.describe('deep links render the app', () => {
  const routes = [
    '/',
    '/home',
    '/appointment',
    '/about',
    '/who-we-are',
    '/login',
    '/signup',
    '/dashboard',
    '/dashboard/review',
    '/dashboard/history',
    '/dashboard/payment/abc',
    '/dashboard/users',
    '/dashboard/add-doctor',
    '/dashboard/manage-doctor',
  ];
  for (const route of routes) {
    test(route, async ({ page }) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const response = await page.goto(route);
      expect(response?.status()).toBe(200);
      // Protected screens may send a signed-out visitor on to /login: the app renders either way.
      await expect(mainNav(page)).toBeVisible();
      await expect(mainNav(page).getByRole('link', { name: 'Doctors Portal' })).toBeVisible();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    });
  }

  test('a screen that cannot be loaded says so, with a way home that works', async ({
    page,
    consoleErrors,
  }) => {
    await page.route(/\/assets\/about-[\w-]+\.js$/, (route) => route.abort());
    await page.goto('/about');
    const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await expect(alert).toContainText(
      'This page could not be shown. Check your connection and try again.',
    );
    await expect(mainNav(page)).toBeVisible();
    await alert.getByRole('link', { name: 'Go home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(alert).toHaveCount(0);
    await expect(page.locator('#main h1').first()).toBeVisible();
    // What the page reported is the failed download, and nothing else.
    const errors = consoleErrors.splice(0);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatch(/dynamically imported module/);
  });

  test('an unknown page answers 404 with the app', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(mainNav(page)).toBeVisible();
  });
});

/** Scrolls through the page so lazy images load, waits for them and the fonts, then back to the top. */
async function loadWholePage(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    const step = Math.max(200, window.innerHeight / 2);
    for (let y = 0; y < document.documentElement.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
    }
    window.scrollTo(0, 0);
    await document.fonts.ready;
  });
  await expect
    .poll(() => page.evaluate(() => [...document.images].every((image) => image.complete)))
    .toBe(true);
  await page.waitForLoadState('networkidle');
}

test.describe('responsive landing page', () => {
  for (const width of [375, 768, 1280]) {
    test(`screenshot at ${width} px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await expect(mainNav(page)).toBeAttached();
      await loadWholePage(page);
      // The screenshot is taken before any assertion, so a broken page is on record too.
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `landing-${width}.png`);
      await page.screenshot({ path: file, fullPage: true });
      await testInfo.attach(`landing-${width}`, { path: file, contentType: 'image/png' });
      await expect(heading(page, 'Your New Smile Starts Here!')).toBeVisible();
      if (width === 375) {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth, 'no horizontal overflow at 375 px').toBeLessThanOrEqual(375);
      }
    });
  }
});

test.describe('production server', () => {
  test('hashed assets are cached as immutable', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length, 'index.html links hashed assets under /assets/').toBeGreaterThan(0);
    for (const asset of assets) {
      const response = await request.get(asset as string);
      expect(response.status(), asset).toBe(200);
      expect(response.headers()['cache-control'], asset).toContain('immutable');
    }
  });

  test('an unknown /api path answers 404 JSON', async ({ request }) => {
    const response = await request.get('/api/nope');
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(typeof body).toBe('object');
  });
});
