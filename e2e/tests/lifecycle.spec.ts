import { addDays, formatMediumDate, type IsoDate, todayIn } from '@doctors-portal/contract';
import { bookThroughApi, freeSlots } from '../fixtures/booking.js';
import { startWithClockMoved } from '../fixtures/moved-clock.js';
import { clinicTimeZone } from '../fixtures/portal.js';
import { expect, type Mail, newPatient, test } from '../fixtures/test.js';
import { signedOut, visitLinks } from '../fixtures/visit-links.js';

/**
 * A booking's life after it is made, as the patient lives it: the reminder arrives, once, when
 * the portal's clock passes the reminder moment (the portal restarted with its clock moved), none
 * for a visit cancelled before, and its
 * Reschedule link, opened signed out, moves the visit; the updated calendar event follows and
 * the old time is free again.
 */

const TREATMENT = 'teeth-cleaning';
const OTHER_TREATMENT = 'teeth-whitening';

/** The instant the clinic's wall clock shows a slot's start on a date (its zone is fixed). */
function startOf(date: IsoDate, slot: string): number {
  const [, hours = '0', minutes = '0', half = 'AM'] = /^(\d+):(\d+) (AM|PM)/.exec(slot) ?? [];
  const hour = (Number(hours) % 12) + (half === 'PM' ? 12 : 0);
  const [, sign = '+', offset = '0'] = /^Etc\/GMT([+-])(\d+)$/.exec(clinicTimeZone) ?? [];
  // Etc/GMT-10 is UTC+10: the IANA names flip the sign.
  const eastHours = (sign === '-' ? 1 : -1) * Number(offset);
  return Date.parse(`${date}T00:00:00Z`) + (hour * 60 + Number(minutes) - eastHours * 60) * 60_000;
}

test('the reminder arrives once its moment has passed, and its Reschedule link moves the visit', async ({
  page,
  browser,
  signUp,
  mailbox,
}) => {
  test.setTimeout(120_000);
  const patient = await signUp(newPatient('reminded'));
  await page.goto('/dashboard');
  const day = addDays(todayIn(clinicTimeZone), 3);
  const slots = await freeSlots(page, TREATMENT, day);
  const slot = slots.at(-1) ?? '';
  await bookThroughApi(page, {
    treatmentId: TREATMENT,
    date: day,
    slot,
    phone: '+1 555 010 4545',
    age: 52,
  });
  await mailbox.waitFor(patient.email, /^Appointment confirmed/);
  // A morning visit of another treatment that day, cancelled before its reminder moment.
  const cancelledId = await bookThroughApi(page, {
    treatmentId: OTHER_TREATMENT,
    date: day,
    slot: (await freeSlots(page, OTHER_TREATMENT, day))[0] ?? '',
    phone: '+1 555 010 4545',
    age: 52,
  });
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const cancelled = await page.request.delete(`/api/booking/${cancelledId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  // The portal restarted a minute past the reminder moments (24 hours before each visit).
  const reminderAt = startOf(day, slot) - 24 * 3_600_000;
  const later = await startWithClockMoved(reminderAt + 60_000 - Date.now());
  let reminder: Mail;
  try {
    reminder = await mailbox.waitFor(patient.email, /^Reminder: /);
    // Longer than the queue's poll: anything else due would have gone out by now.
    await page.waitForTimeout(6_000);
  } finally {
    await later.stop();
  }
  // Exactly one reminder: the live visit's, none for the cancelled one.
  const reminders = (await mailbox.all(patient.email)).filter((mail) =>
    mail.subject.startsWith('Reminder: '),
  );
  expect(reminders.map((mail) => mail.subject)).toEqual([reminder.subject]);
  expect(reminder.subject).toBe(
    `Reminder: Teeth Cleaning on ${formatMediumDate(day)} at ${slot.split(' - ')[0]} (clinic time, ${clinicTimeZone})`,
  );

  // Its Reschedule link, signed out, moves the visit to another time that day.
  const [, reschedule] = visitLinks(reminder);
  const visitor = await signedOut(browser, 63);
  await visitor.goto(reschedule);
  // Availability is public: read through the visitor's fresh connections. The patient's page
  // has been idle past the portal's keep-alive (10 s) while the reminder was awaited, and its
  // request context reused a connection the portal was closing just then (ECONNRESET).
  const newSlot = (await freeSlots(visitor, TREATMENT, day)).find((free) => free !== slot) ?? '';
  await visitor.getByLabel('Time').selectOption(newSlot);
  await visitor.getByRole('button', { name: 'Move my visit' }).click();
  await expect(visitor.getByText(`Moved to ${formatMediumDate(day)}, ${newSlot}.`)).toBeVisible();

  // The updated calendar event: the same visit, one sequence on; the old time is free again.
  const moved = await mailbox.waitFor(patient.email, /^Appointment moved/);
  const calendar = moved.attachments.find((part) => part.contentType === 'text/calendar');
  expect(calendar?.text).toMatch(/SEQUENCE:1\r?\n/);
  expect(await freeSlots(visitor, TREATMENT, day)).toContain(slot);
});
