import { addDays, formatMediumDate, todayIn } from '@doctors-portal/contract';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { baseURL } from '../fixtures/portal.js';
import { expect, expectNoSidewaysScroll, newPatient, test } from '../fixtures/test.js';

/**
 * The back office's audit log and messages: an administrator sees, in the audit log, the booking
 * a patient has just made and the role change the administrator made, with the administrator's
 * name; a visitor's Contact Us message reaches the clinic's mailbox (the SMTP stand-in) and the
 * Messages screen, where it is marked read. Both screens are axe-clean, usable by keyboard and
 * fit 375 px without sideways scrolling.
 */

/** The clinic's address when CLINIC_EMAIL is not set (server/src/config/env.ts). */
const CLINIC_EMAIL = 'hello@doctors-portal.test';

test('an admin sees a patient’s booking and their own role change in the audit log', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  // The patient books, in the test's own browser.
  const patient = await signUp(newPatient('audited'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  const day = addDays(todayIn(clinic.timeZone), 5 + Math.floor(Math.random() * 30));
  const available = (await (
    await page.request.get(`/api/available?date=${encodeURIComponent(formatMediumDate(day))}`)
  ).json()) as Array<{ _id: string; name: string; slots: string[] }>;
  const treatment = available.find((item) => item.slots.length > 0);
  expect(treatment).toBeDefined();
  const slot = treatment?.slots.at(-1) ?? '';
  const booked = await page.request.post('/api/booking', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      treatmentId: treatment?._id,
      date: formatMediumDate(day),
      slot,
      phone: '+1 555 010 4141',
      age: 29,
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);

  // Someone to promote.
  const promoted = newPatient('promoted');
  const other = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': '10.252.0.9' },
  });
  await other.request.post('/api/auth/sign-up/email', {
    data: promoted,
    headers: { origin: baseURL },
  });
  await other.close();

  const admin = newPatient('auditor');
  const desk = await adminDesk(browser, mailbox, admin, 251);
  await desk.goto('/dashboard/users');
  const row = desk.getByRole('row').filter({ hasText: promoted.email });
  await row.getByRole('button', { name: /^Make Admin/ }).click();
  await desk.getByRole('dialog').getByRole('button', { name: 'Make Admin' }).click();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  // The audit log, reached from the sidebar's admin group.
  await desk.goto('/dashboard');
  const nav = desk.getByRole('navigation', { name: 'Dashboard' });
  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(desk).toHaveURL(/\/dashboard\/audit$/);
  await expect(desk.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const entries = desk.getByRole('list', { name: 'Audit log' }).getByRole('listitem');

  const roleChange = entries.filter({ hasText: `User: ${promoted.email}` });
  await expect(roleChange).toContainText('Admin role given');
  await expect(roleChange).toContainText(`By ${admin.name}`);
  await expect(roleChange).toContainText(admin.email);

  const booking = entries.filter({ hasText: 'Booking made' }).filter({ hasText: patient.name });
  await expect(booking).toContainText(`${treatment?.name}, ${day}, ${slot}`);
  await expect(booking).toContainText('Patient');
  await expectNoAxeViolations(desk, '/dashboard/audit', testInfo);

  // Filtered by keyboard: only the administrator's own changes.
  await desk.getByLabel('Who').focus();
  await desk.keyboard.type(admin.email);
  await desk.keyboard.press('Tab');
  await expect(desk.getByLabel('Action')).toBeFocused();
  await desk.getByLabel('Action').selectOption('role.*');
  await desk.keyboard.press('Tab');
  await expect(desk.getByRole('button', { name: 'Apply filters' })).toBeFocused();
  await desk.keyboard.press('Enter');
  await expect(desk).toHaveURL(/actor=.*&action=role\.\*/);
  await expect(entries).toHaveCount(1);
  await expect(entries.first()).toContainText(`User: ${promoted.email}`);

  // At 375 px: nothing scrolls sideways, and the filters and entries still read.
  await desk.setViewportSize({ width: 375, height: 812 });
  await desk.goto(`/dashboard/audit?actor=${encodeURIComponent(patient.email)}`);
  await expect(entries.filter({ hasText: 'Booking made' })).toBeVisible();
  await expectNoSidewaysScroll(desk);
  await expectNoAxeViolations(desk, '/dashboard/audit at 375 px', testInfo);
  await desk.context().close();
});

test('a visitor’s message reaches the clinic’s mailbox and the Messages screen', async ({
  page,
  browser,
  mailbox,
}, testInfo) => {
  test.setTimeout(90_000);
  const subject = `Whitening question ${Date.now().toString(36)}`;
  await page.goto('/#who-we-are');
  const form = page.getByRole('form', { name: 'Contact Us' });
  await form.getByRole('textbox', { name: 'Email Address' }).fill('visitor@example.com');
  await form.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await form.getByRole('textbox', { name: 'Your Message' }).fill('How long does it take?');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(form.getByRole('status')).toContainText('your message has reached our front desk');

  const mail = await mailbox.waitFor(CLINIC_EMAIL, new RegExp(`^Contact form: ${subject}$`));
  expect(mail.text).toContain('From: visitor@example.com');
  expect(mail.text).toContain('How long does it take?');

  const desk = await adminDesk(browser, mailbox, newPatient('frontdesk'), 251);
  await desk.goto('/dashboard');
  await desk
    .getByRole('navigation', { name: 'Dashboard' })
    .getByRole('link', { name: 'Messages' })
    .click();
  await expect(desk).toHaveURL(/\/dashboard\/messages$/);
  const message = desk.getByRole('article', { name: new RegExp(subject) });
  await expect(message).toContainText('Unread');
  await expect(message).toContainText('visitor@example.com');
  await expect(message).toContainText('How long does it take?');
  await expectNoAxeViolations(desk, '/dashboard/messages', testInfo);

  const markRead = message.getByRole('button', { name: /^Mark as read/ });
  await markRead.focus();
  await desk.keyboard.press('Enter');
  await expect(message.getByRole('button', { name: /^Mark as unread/ })).toBeVisible();
  await expect(message).not.toContainText('Unread');

  await desk.setViewportSize({ width: 375, height: 812 });
  await expectNoSidewaysScroll(desk);
  await expectNoAxeViolations(desk, '/dashboard/messages at 375 px', testInfo);
  await desk.context().close();
});
