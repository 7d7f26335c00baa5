import { addDays, formatMediumDate, todayIn, waitlistMessages } from '@doctors-portal/contract';
import type { Browser, Page } from '@playwright/test';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { baseURL } from '../fixtures/portal.js';
import { expect, type Mail, type Mailbox, newPatient, test } from '../fixtures/test.js';

/**
 * The waitlist end to end: a day whose one slot is taken offers 'Join the waitlist'; two
 * patients join; the slot is cancelled; both get the mail; the first to follow it books the
 * slot from the form it opens, and the other's link then says it is taken.
 */

const SLOT = '9:00 AM - 9:30 AM';

const bearerOf = async (page: Page) => {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
  return `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}`;
};

/** A verified patient signed in, in a browser context of their own (`10.<network>.x.8`). */
async function patientPage(browser: Browser, mailbox: Mailbox, label: string, network: number) {
  const patient = newPatient(label);
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.${network}.${Math.floor(Math.random() * 250)}.8` },
  });
  const signedUp = await context.request.post('/api/auth/sign-up/email', {
    data: patient,
    headers: { origin: baseURL },
  });
  expect(signedUp.ok(), await signedUp.text()).toBe(true);
  const verify = await mailbox.waitFor(patient.email, /^Verify your email/);
  expect((await context.request.get(mailbox.linkIn(verify))).ok()).toBe(true);
  return { patient, page: await context.newPage() };
}

const slotLinkIn = (mail: Mail) => /https?:\/\/\S+\/appointment\?\S+/.exec(mail.text)?.[0] ?? '';

test('a freed slot goes to the waitlist: the first to follow the mail books it, the next is told it is taken', async ({
  browser,
  mailbox,
}, testInfo) => {
  test.setTimeout(150_000);
  const suffix = Math.random().toString(36).slice(2, 7);
  const name = `Night Guard ${suffix}`;

  // A treatment of one slot, made by the clinic.
  const desk = await adminDesk(browser, mailbox, newPatient('waitlist-desk'), 71);
  await desk.goto('/dashboard');
  const created = await desk.request.post('/api/treatments', {
    headers: { authorization: await bearerOf(desk) },
    data: { name, description: 'Made for the waitlist check.', price: 60, slots: [SLOT] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const treatmentId = (await created.json())._id as string;
  const clinic = (await (await desk.request.get('/api/clinic')).json()) as { timeZone: string };
  const day = addDays(todayIn(clinic.timeZone), 30 + Math.floor(Math.random() * 60));

  // The holder books the one slot.
  const holder = await patientPage(browser, mailbox, 'waitlist-holder', 72);
  await holder.page.goto('/dashboard');
  const holderAuth = await bearerOf(holder.page);
  const booked = await holder.page.request.post('/api/booking', {
    headers: { authorization: holderAuth },
    data: {
      treatmentId,
      date: formatMediumDate(day),
      slot: SLOT,
      phone: '+1 555 010 4141',
      age: 50,
    },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const bookingId = (await booked.json()).booking._id as string;

  // Two patients join the waitlist from the card.
  const [second, third] = [
    await patientPage(browser, mailbox, 'waitlist-second', 73),
    await patientPage(browser, mailbox, 'waitlist-third', 74),
  ];
  for (const { page } of [second, third]) {
    await page.goto(`/appointment?date=${day}`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card.getByRole('button', { name: 'Book Appointment' })).toBeDisabled();
    await card.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(
      page.getByText(waitlistMessages.joined(name, formatMediumDate(day))),
    ).toBeVisible();
  }
  await expectNoAxeViolations(third.page, '/appointment (Join the waitlist)', testInfo);
  await third.page.goto('/dashboard');
  await expect(
    third.page.getByRole('button', {
      name: `Leave the waitlist for ${name} on ${formatMediumDate(day)}`,
    }),
  ).toBeVisible();
  await expectNoAxeViolations(third.page, '/dashboard (the waitlist)', testInfo);

  // The holder cancels: both waiting patients are mailed the slot.
  const cancelled = await holder.page.request.delete(`/api/booking/${bookingId}`, {
    headers: { authorization: holderAuth },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  const subject = new RegExp(`^A slot for ${name} is free`);
  const [secondMail, thirdMail] = [
    await mailbox.waitFor(second.patient.email, subject),
    await mailbox.waitFor(third.patient.email, subject),
  ];

  // The second follows the link first: the form opens on the slot, and books it.
  await second.page.goto(slotLinkIn(secondMail));
  const dialog = second.page.getByRole('dialog', { name });
  await expect(dialog.getByLabel('Time slot')).toHaveValue(SLOT);
  await dialog.getByLabel('Phone number').fill('+1 555 010 4242');
  await dialog.getByLabel('Age').fill('33');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toBeHidden();

  // The third's link now says the slot is taken; they stay on the list.
  await third.page.goto(slotLinkIn(thirdMail));
  await expect(third.page.getByText(waitlistMessages.slotTaken)).toBeVisible();
  await third.page.goto('/dashboard');
  await expect(
    third.page.getByRole('button', {
      name: `Leave the waitlist for ${name} on ${formatMediumDate(day)}`,
    }),
  ).toBeVisible();
});
