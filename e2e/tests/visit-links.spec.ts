import { addDays, formatMediumDate, todayIn } from '@doctors-portal/contract';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { bookThroughApi, freeSlots } from '../fixtures/booking.js';
import { expect, newPatient, test } from '../fixtures/test.js';
import { signedOut, visitLinks } from '../fixtures/visit-links.js';

/**
 * The one-tap links of the booking mails, opened signed out: Confirm shows on the clinic's
 * schedule, Reschedule moves the visit (the old time bookable again, the updated mail bringing
 * new links), Cancel asks once and frees the time; a used link says so. Each page is axe-clean,
 * and so is the back office's page of failed mail.
 */

const TREATMENT = 'teeth-whitening';

test('a patient confirms, moves and cancels a visit from the mail, signed out', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(120_000);
  const patient = await signUp(newPatient('onetap'));
  await page.goto('/dashboard');
  const clinic = (await (await page.request.get('/api/clinic')).json()) as { timeZone: string };
  // Days no other spec books (they stay under 160; the horizon is 180), so that no test running
  // beside this one takes its slot between the look and the booking.
  const from = addDays(todayIn(clinic.timeZone), 160 + Math.floor(Math.random() * 18));
  const to = addDays(from, 1);
  const slot = (await freeSlots(page, TREATMENT, from)).at(-1) ?? '';
  await bookThroughApi(page, {
    treatmentId: TREATMENT,
    date: from,
    slot,
    phone: '+1 555 010 7272',
    age: 41,
  });
  const [confirm, reschedule] = visitLinks(
    await mailbox.waitFor(patient.email, /^Appointment confirmed/),
  );

  // Confirm: the page confirms on arrival, and the clinic's schedule shows it.
  const visitor = await signedOut(browser, 62);
  await visitor.goto(confirm);
  await expect(visitor.getByRole('heading', { name: 'Your visit is confirmed' })).toBeVisible();
  await expect(visitor.getByText(formatMediumDate(from))).toBeVisible();
  await expectNoAxeViolations(visitor, '/visit (Confirm)', testInfo);
  const desk = await adminDesk(browser, mailbox, newPatient('onetapdesk'), 62);
  await desk.goto(`/dashboard/schedule?date=${from}`);
  await expect(desk.getByRole('row').filter({ hasText: patient.name })).toContainText('Confirmed');

  // The back office's page of failed mail, reached from the sidebar.
  await desk.getByRole('link', { name: 'Outgoing mail' }).click();
  await expect(desk.getByRole('heading', { name: 'Outgoing mail' })).toBeVisible();
  await expect(desk.getByText('Loading failed mail…')).toBeHidden();
  await expectNoAxeViolations(desk, '/dashboard/mail', testInfo);

  // Reschedule: the treatment's booking page with the visit in hand.
  await visitor.goto(reschedule);
  await expect(visitor.getByRole('note')).toContainText(
    `Moving your Teeth Whitening on ${formatMediumDate(from)} at ${slot}`,
  );
  await visitor.getByLabel('New date').fill(to);
  const newSlot = (await freeSlots(page, TREATMENT, to))[0] ?? '';
  await visitor.getByLabel('Time').selectOption(newSlot);
  await expectNoAxeViolations(visitor, '/visit (Reschedule)', testInfo);
  await visitor.getByRole('button', { name: 'Move my visit' }).click();
  await expect(visitor.getByText(`Moved to ${formatMediumDate(to)}, ${newSlot}.`)).toBeVisible();
  expect(await freeSlots(page, TREATMENT, from)).toContain(slot);

  // The updated mail's Cancel link: asked once, then the time is free.
  const [, , cancel] = visitLinks(await mailbox.waitFor(patient.email, /^Appointment moved/));
  await visitor.goto(cancel);
  await expect(visitor.getByRole('heading', { name: 'Cancel your visit' })).toBeVisible();
  await expectNoAxeViolations(visitor, '/visit (Cancel)', testInfo);
  await visitor.getByRole('button', { name: 'Cancel my visit' }).click();
  await visitor.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(visitor.getByRole('heading', { name: 'Your visit is cancelled' })).toBeVisible();
  expect(await freeSlots(page, TREATMENT, to)).toContain(newSlot);

  // A used link says so.
  await visitor.goto(confirm);
  await expect(visitor.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(visitor.getByText('This link has already been used.')).toBeVisible();
  await expectNoAxeViolations(visitor, '/visit (a used link)', testInfo);
});
