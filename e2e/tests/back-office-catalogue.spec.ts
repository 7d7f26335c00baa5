import { addDays, formatMediumDate, type IsoDate, todayIn } from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, expectNoSidewaysScroll, newPatient, test } from '../fixtures/test.js';

/**
 * The clinic's catalogue and calendar, run from the back office: an administrator adds a
 * treatment from generated slot times, patients see it on the booking page, then it is retired
 * and leaves it; a closure makes its day unbookable (disabled in the calendar, no slots from
 * `/api/available`); the audit log names the administrator for each change. Each screen is
 * axe-clean and fits 375 px. The treatment and the closed day are the test's own, so the other
 * tests, running at the same time against the same portal, never meet them.
 */

async function availableNames(page: Page, date: IsoDate): Promise<Map<string, string[]>> {
  const response = await page.request.get(
    `/api/available?date=${encodeURIComponent(formatMediumDate(date))}`,
  );
  expect(response.ok()).toBe(true);
  const list = (await response.json()) as Array<{ name: string; slots: string[] }>;
  return new Map(list.map((item) => [item.name, item.slots]));
}

const treatmentCard = (page: Page, name: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });

test('an admin adds a treatment, patients see it, and once retired it leaves the booking page', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  const admin = newPatient('catalogue');
  const desk = await adminDesk(browser, mailbox, admin, 253);
  const name = `Night Guard ${Math.random().toString(36).slice(2, 7)}`;

  await desk.goto('/dashboard');
  await desk
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Treatments' })
    .click();
  await expect(desk).toHaveURL(/\/dashboard\/treatments$/);
  await expect(desk.getByRole('heading', { name: 'Treatments', level: 1 })).toBeVisible();
  await expectNoAxeViolations(desk, '/dashboard/treatments', testInfo);

  // A new treatment, its slot times generated from a start, an end and a length.
  await desk.getByRole('button', { name: 'New treatment' }).click();
  await desk.getByLabel('Name').fill(name);
  await desk.getByLabel('Price (USD)').fill('145.50');
  await desk.getByLabel('Description').fill('A guard made to measure for grinding at night.');
  await desk.getByLabel('From').fill('09:00');
  await desk.getByLabel('To').fill('11:00');
  await desk.getByLabel('Length (minutes)').fill('60');
  await desk.getByRole('button', { name: 'Add slots' }).click();
  await expect(desk.getByLabel('Slot times')).toHaveValue(
    '9:00 AM - 10:00 AM\n10:00 AM - 11:00 AM',
  );
  await expectNoAxeViolations(desk, '/dashboard/treatments, the form', testInfo);
  await desk.getByRole('button', { name: 'Add treatment' }).click();
  await expect(desk.getByText(`Added ${name}: patients can book it now.`)).toBeVisible();
  const row = desk.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('$145.50');
  await expect(row).toContainText('Offered');

  // Patients see it on the booking page, with its price and slots.
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const day = addDays(todayIn(clinic.timeZone), 40 + Math.floor(Math.random() * 40));
  expect((await availableNames(page, day)).get(name)).toEqual([
    '9:00 AM - 10:00 AM',
    '10:00 AM - 11:00 AM',
  ]);
  await signUp(newPatient('browsing'));
  await page.goto(`/appointment?date=${day}`);
  await expect(treatmentCard(page, name)).toContainText('9:00 AM - 10:00 AM');

  // Retired, after a confirmation: it leaves the booking page and the API.
  await row.getByRole('button', { name: `Retire ${name}` }).click();
  const confirm = desk.getByRole('dialog', { name: new RegExp(`Retire ${name}`) });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Retire' }).click();
  await expect(desk.getByText(`Retired ${name}: it is no longer offered.`)).toBeVisible();
  await expect(row).toContainText('Retired');
  expect((await availableNames(page, day)).has(name)).toBe(false);
  await page.reload();
  await expect(treatmentCard(page, 'Teeth Cleaning')).toBeVisible();
  await expect(treatmentCard(page, name)).toHaveCount(0);

  // At 375 px the list reads without sideways scrolling.
  await desk.setViewportSize({ width: 375, height: 812 });
  await expect(row).toBeVisible();
  await expectNoSidewaysScroll(desk);
  await expectNoAxeViolations(desk, '/dashboard/treatments at 375 px', testInfo);

  // The audit log names the administrator for both changes.
  await desk.setViewportSize({ width: 1280, height: 800 });
  await desk.goto('/dashboard/audit?action=treatment.*');
  const entries = desk.getByRole('list', { name: 'Audit log' }).getByRole('listitem');
  for (const action of ['Treatment added', 'Treatment retired']) {
    const entry = entries.filter({ hasText: action }).filter({ hasText: `Treatment: ${name}` });
    await expect(entry).toContainText(`By ${admin.name}`);
  }
  await desk.context().close();
});

test('a closure over a booked day: the patient is told, the day is closed in the calendar and the API', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  // A patient's booking on a day that only this test uses.
  const patient = await signUp(newPatient('closed-out'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const day = addDays(todayIn(clinic.timeZone), 100 + Math.floor(Math.random() * 60));
  const slots = (await availableNames(page, day)).get('Teeth Cleaning') ?? [];
  expect(slots.length).toBeGreaterThan(0);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const booked = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      treatmentId: 'teeth-cleaning',
      date: formatMediumDate(day),
      slot: slots[0],
      phone: '+1 555 010 3131',
      age: 52,
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);

  const admin = newPatient('calendar');
  const desk = await adminDesk(browser, mailbox, admin, 253);
  await desk.goto('/dashboard');
  await desk
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Clinic' })
    .click();
  await expect(desk).toHaveURL(/\/dashboard\/clinic$/);
  await expect(
    desk.getByRole('heading', { name: 'Clinic calendar and rules', level: 1 }),
  ).toBeVisible();
  await expectNoAxeViolations(desk, '/dashboard/clinic', testInfo);

  // The closure lists the booking it covers; 'Cancel and notify' cancels it and mails the patient.
  const label = `Staff training ${Math.random().toString(36).slice(2, 7)}`;
  await desk.getByLabel('First closed day').fill(day);
  await desk.getByLabel('Last closed day').fill(day);
  await desk.getByLabel('Label').fill(label);
  await desk.getByRole('button', { name: 'Add closure' }).click();
  const closure = desk.getByRole('listitem').filter({ hasText: label });
  await expect(closure).toContainText('1 booking is still on these days:');
  await expect(closure).toContainText(patient.name);
  await closure.getByRole('button', { name: 'Cancel and notify' }).click();
  const confirm = desk.getByRole('dialog');
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(desk, '/dashboard/clinic, cancel and notify', testInfo);
  await confirm.getByRole('button', { name: 'Cancel and notify' }).click();
  await expect(desk.getByText('Cancelled 1 booking; the patient has been notified.')).toBeVisible();
  const mail = await mailbox.waitFor(patient.email, /^Appointment cancelled/);
  expect(mail.text).toContain(label);

  // No slots that day, for any treatment; the calendar shows it closed.
  const closedDay = await availableNames(page, day);
  expect(closedDay.size).toBeGreaterThan(0);
  expect([...closedDay.values()].every((list) => list.length === 0)).toBe(true);
  await page.goto(`/appointment?date=${day}`);
  const dayButton = page.getByRole('button', { name: new RegExp(`clinic closed: ${label}`) });
  await expect(dayButton).toBeDisabled();

  // At 375 px the screen reads without sideways scrolling.
  await desk.setViewportSize({ width: 375, height: 812 });
  await expect(closure).toBeVisible();
  await expectNoSidewaysScroll(desk);
  await expectNoAxeViolations(desk, '/dashboard/clinic at 375 px', testInfo);

  // The audit log names the administrator for the closure and the cancellation.
  await desk.setViewportSize({ width: 1280, height: 800 });
  await desk.goto(`/dashboard/audit?actor=${encodeURIComponent(admin.email)}`);
  const entries = desk.getByRole('list', { name: 'Audit log' }).getByRole('listitem');
  await expect(entries.filter({ hasText: 'Closure added' })).toContainText(`By ${admin.name}`);
  await expect(
    entries
      .filter({ hasText: 'Booking cancelled' })
      .filter({ hasText: `Booking: Teeth Cleaning, ${day}, ${slots[0]}` }),
  ).toContainText(`By ${admin.name}`);
  await desk.context().close();
});
