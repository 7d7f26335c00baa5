import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures/test.js';

/** The public pages the server sends drawn, with the heading each opens with. */
const PAGES = [
  { path: '/', heading: 'Your New Smile Starts Here!' },
  { path: '/about', heading: 'About Doctors Portal' },
  { path: '/login', heading: 'Login now!' },
  { path: '/signup', heading: 'Sign Up now!' },
];

/**
 * The whole page once it has stopped changing: a screenshot of the whole page shows the images
 * below the fold, which the browser only then starts loading.
 */
async function settledScreenshot(page: Page): Promise<Buffer> {
  let shot = await page.screenshot({ fullPage: true, animations: 'disabled' });
  for (let attempt = 0; attempt < 5; attempt++) {
    await page.waitForLoadState('networkidle');
    const again = await page.screenshot({ fullPage: true, animations: 'disabled' });
    if (again.equals(shot)) return shot;
    shot = again;
  }
  throw new Error(`${page.url()} kept changing`);
}

test.describe('prerendered public pages', () => {
  for (const { path, heading } of PAGES) {
    test(`${path} comes drawn, and the app takes it over without a loader or an error`, async ({
      page,
    }) => {
      // Any loader that shows while the page loads, recorded from the first byte of the page.
      await page.addInitScript(() => {
        const seen: string[] = [];
        Object.assign(window, { loadersSeen: seen });
        new MutationObserver(() => {
          for (const loader of document.querySelectorAll('.loading-spinner')) {
            if (!loader.closest('[aria-hidden="true"]')) seen.push(loader.outerHTML);
          }
        }).observe(document, { childList: true, subtree: true });
      });
      const response = await page.goto(path);
      const html = (await response?.text()) ?? '';
      expect(html).toContain(`>${heading}</h1>`);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();

      // The app has taken over (React has marked the root, and the page has settled): a link
      // then navigates within the page, which keeps its state.
      await page.waitForFunction(() =>
        Object.keys(document.getElementById('root') ?? {}).some((key) =>
          key.startsWith('__reactContainer'),
        ),
      );
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => Object.assign(window, { samePage: true }));
      const [link, address] = path === '/about' ? ['Home', /\/home$/] : ['About', /\/about$/];
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: link })
        .click();
      await expect(page).toHaveURL(address);
      expect(await page.evaluate(() => 'samePage' in window)).toBe(true);
      expect(
        await page.evaluate(() => (window as unknown as { loadersSeen: string[] }).loadersSeen),
      ).toEqual([]);
    });
  }

  test('read whole with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      for (const { path, heading } of PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
        await expect(page.getByRole('link', { name: 'Login' }).first()).toBeVisible();
        await expect(page.locator('footer')).toContainText('Copyright ©');
      }
      // The login form is not sent before the app runs: nothing would put the password in an
      // address.
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeDisabled();
    } finally {
      await context.close();
    }
  });

  test('each page is drawn alike with its own rules alone and with the whole stylesheet', async ({
    browser,
    request,
  }) => {
    // Sixteen full-page screenshots, each taken once the page has settled: 31 s on a quiet
    // machine, more than the default minute beside CI's other suites on two cores.
    test.setTimeout(180_000);
    const shell = await (await request.get('/dashboard')).text();
    const stylesheet = shell.match(/<link rel="stylesheet" crossorigin href="([^"]+)">/)?.[1];
    expect(stylesheet).toBeTruthy();
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 800 },
    ]) {
      // What a page looks like before its inline script runs: JavaScript off.
      const context = await browser.newContext({ javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      try {
        for (const { path } of PAGES) {
          await page.goto(path);
          const own = await settledScreenshot(page);
          // The same page with the whole stylesheet linked after its own rules, as its script
          // links it.
          await page.route(path, async (route) => {
            const response = await route.fetch({
              headers: { ...route.request().headers(), 'accept-encoding': 'identity' },
            });
            const body = (await response.text()).replace(
              '</head>',
              `<link rel="stylesheet" href="${stylesheet}"></head>`,
            );
            await route.fulfill({ response, body });
          });
          await page.goto(path);
          const whole = await settledScreenshot(page);
          await page.unroute(path);
          expect(own.equals(whole), `${path} at ${viewport.width} px`).toBe(true);
        }
      } finally {
        await context.close();
      }
    }
  });

  test('the login form can be sent once the app has taken the page over', async ({ page }) => {
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Login', exact: true });
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByText('Email is Required')).toBeVisible();
  });
});
