import {
  addDays,
  formatMediumDate,
  type IsoDate,
  messages,
  todayIn,
} from '@doctors-portal/contract';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { adminDesk } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { expect, logOut, newPatient, test } from '../fixtures/test.js';

/**
 * Doctors as providers: an administrator has Dr. A and Dr. B perform a treatment and marks Dr. B
 * off next Monday; a patient booking that Monday is offered Dr. A alone, books with 'any' and is
 * given Dr. A (named in the toast, My Appointments and the mail); a second patient picks Dr. B by
 * name on the Tuesday; the schedule shows each visit under its doctor; each doctor's calendar
 * feed answers an `.ics` with their visit. The treatment and the doctors are the test's own, so
 * the other tests, which run at the same time against the same portal, never meet them.
 */

const SLOTS = ['10:00 AM - 10:30 AM', '10:30 AM - 11:00 AM'];

const bearerOf = async (page: Page) => {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toMatch(/^ey/);
  return `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}`;
};

/** The next Monday after today in the clinic's calendar (a week ahead when today is one). */
function nextMonday(today: IsoDate): IsoDate {
  const weekday = new Date(`${today}T12:00:00Z`).getUTCDay();
  return addDays(today, ((8 - weekday) % 7) + (weekday === 1 ? 7 : 0));
}

const card = (page: Page, treatment: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: treatment, exact: true }) });

test('patients choose a dentist or any, days off shape the offer, the schedule and feeds name the doctor', async ({
  page,
  browser,
  signUp,
  mailbox,
}, testInfo) => {
  test.setTimeout(150_000);
  const suffix = Math.random().toString(36).slice(2, 7);
  const treatment = `Deep Clean ${suffix}`;
  const drA = `Dr. Ada ${suffix}`;
  const drB = `Dr. Ben ${suffix}`;

  // The administrator's treatment and two doctors who perform it.
  const admin = newPatient('doctors-desk');
  const desk = await adminDesk(browser, mailbox, admin, 254);
  await desk.goto('/dashboard');
  const authorization = await bearerOf(desk);
  const created = await desk.request.post('/api/treatments', {
    headers: { authorization },
    data: { name: treatment, description: 'A deeper cleaning.', price: 120, slots: SLOTS },
  });
  expect(created.status(), await created.text()).toBe(201);
  const photo = await sharp({
    create: { width: 96, height: 96, channels: 3, background: '#0f766e' },
  })
    .png()
    .toBuffer();
  const upload = await desk.request.post('/api/image', {
    headers: { authorization },
    multipart: { image: { name: 'doctor.png', mimeType: 'image/png', buffer: photo } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const image = (await upload.json()).data.url as string;
  for (const name of [drA, drB]) {
    const doctor = await desk.request.post('/api/doctor', {
      headers: { authorization },
      data: {
        name,
        email: `${name.split(' ')[1]?.toLowerCase()}.${suffix}@clinic.com`,
        specialty: treatment,
        image,
      },
    });
    expect(doctor.status(), await doctor.text()).toBe(201);
  }
  const doctors = (await (
    await desk.request.get('/api/doctor', { headers: { authorization } })
  ).json()) as Array<{ _id: string; name: string; treatmentIds: string[] }>;
  const idOf = (name: string) => doctors.find((doctor) => doctor.name === name)?._id ?? '';

  // Dr. B is off next Monday, set in Manage Doctor's edit form.
  const clinic = (await (await desk.request.get('/api/clinic')).json()) as { timeZone: string };
  const monday = nextMonday(todayIn(clinic.timeZone));
  const tuesday = addDays(monday, 1);
  await desk.goto('/dashboard/manage-doctor');
  await desk.getByRole('button', { name: `Edit ${drB}` }).click();
  const edit = desk.getByRole('region', { name: `Edit ${drB}` });
  await edit.getByLabel('Date off').fill(monday);
  await edit.getByRole('button', { name: 'Add day off' }).click();
  await expectNoAxeViolations(desk, '/dashboard/manage-doctor, editing a doctor', testInfo);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(desk.getByText(`Saved ${drB}.`)).toBeVisible();

  // Monday: only Dr. A is offered; booked with 'any', the visit is Dr. A's.
  const first = await signUp(newPatient('monday'));
  await page.goto(`/appointment?date=${monday}`);
  await card(page, treatment)
    .getByRole('button', { name: /Book Appointment/ })
    .click();
  const dialog = page.getByRole('dialog', { name: treatment });
  await dialog.getByLabel('Time slot').selectOption(SLOTS[0] ?? '');
  const dentist = dialog.getByRole('group', { name: 'Dentist' });
  await expect(dentist.getByRole('radio', { name: 'Any available dentist' })).toBeChecked();
  await expect(dentist.getByRole('radio', { name: drA })).toBeVisible();
  await expect(dentist.getByRole('radio', { name: drB })).toHaveCount(0);
  await expectNoAxeViolations(page, '/appointment, the modal with its dentists', testInfo);
  await dialog.getByLabel('Phone number').fill('+1 555 010 6161');
  await dialog.getByLabel('Age').fill('38');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByText(messages.bookingSet(formatMediumDate(monday), SLOTS[0] ?? '')),
  ).toBeVisible();
  await expect(page.getByText(`With ${drA}.`)).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('row').filter({ hasText: treatment })).toContainText(drA);
  const mail = await mailbox.waitFor(first.email, new RegExp(treatment));
  expect(mail.text).toContain(drA);

  // Tuesday: a second patient picks Dr. B by name.
  await logOut(page);
  const second = await signUp(newPatient('tuesday'));
  await page.goto(`/appointment?date=${tuesday}`);
  await card(page, treatment)
    .getByRole('button', { name: /Book Appointment/ })
    .click();
  await dialog.getByLabel('Time slot').selectOption(SLOTS[1] ?? '');
  await dialog.getByRole('group', { name: 'Dentist' }).getByRole('radio', { name: drB }).check();
  await dialog.getByLabel('Phone number').fill('+1 555 010 6262');
  await dialog.getByLabel('Age').fill('45');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(`With ${drB}.`)).toBeVisible();

  // The schedule shows each visit under its doctor.
  await desk.goto(`/dashboard/schedule?date=${monday}`);
  await expect(desk.getByRole('region', { name: drA })).toContainText(first.name);
  await desk.goto(`/dashboard/schedule?date=${tuesday}`);
  await expect(desk.getByRole('region', { name: drB })).toContainText(second.name);
  await expectNoAxeViolations(desk, '/dashboard/schedule, by doctor', testInfo);

  // The week names each visit's doctor in a column, and at 1280 px its table fits its box.
  await desk.setViewportSize({ width: 1280, height: 800 });
  await desk.goto(`/dashboard/schedule?date=${monday}&view=week`);
  await expect(desk.getByRole('columnheader', { name: 'Doctor' }).first()).toBeVisible();
  await expect(desk.getByRole('row').filter({ hasText: first.name })).toContainText(drA);
  const sideways = await desk.evaluate(() =>
    [...document.querySelectorAll('table')].map((table) => {
      const box = table.parentElement as HTMLElement;
      return box.scrollWidth - box.clientWidth;
    }),
  );
  expect(
    sideways.every((overflow) => overflow <= 0),
    `overflow: ${sideways}`,
  ).toBe(true);

  // Each doctor's calendar feed lists their visit: first name and treatment only.
  for (const [name, day, patient] of [
    [drA, monday, first],
    [drB, tuesday, second],
  ] as const) {
    const feed = await desk.request.post(`/api/doctor/${idOf(name)}/calendar-feed`, {
      headers: { authorization },
    });
    expect(feed.status(), await feed.text()).toBe(200);
    const calendar = await desk.request.get((await feed.json()).url as string);
    expect(calendar.headers()['content-type']).toContain('text/calendar');
    const ics = (await calendar.text()).replace(/\r\n[ \t]/g, '');
    expect(ics).toContain(`SUMMARY:${patient.name.split(' ')[0]} · ${treatment}`);
    expect(ics).toContain(day.replaceAll('-', ''));
    expect(ics).not.toContain(patient.email);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
  }
  await desk.context().close();
});
