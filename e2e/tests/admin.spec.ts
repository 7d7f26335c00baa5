import { messages } from '@doctors-portal/contract';
import sharp from 'sharp';
import { adminCli } from '../fixtures/admin.js';
import { expectNoAxeViolations } from '../fixtures/axe.js';
import { baseURL } from '../fixtures/portal.js';
import { expect, newPatient, test } from '../fixtures/test.js';

/**
 * Admin acceptance (issue 6): an admin made with the CLI promotes a patient and takes the role
 * back, and adds a doctor with a PNG photo, likes and deletes it; a patient's make-admin call is refused with the spec's words;
 * the add-doctor form words its errors as the spec does.
 */

test('an admin makes a patient an admin and, after a question, takes the role back', async ({
  page,
  signUp,
  browser,
}) => {
  const admin = await signUp(newPatient('admin'));
  await adminCli('grant', admin.email);

  // A patient signs up in another browser.
  const patientContext = await browser.newContext();
  const patient = newPatient('promoted');
  await patientContext.request.post(`${baseURL}/api/auth/sign-up/email`, {
    data: patient,
    headers: { origin: baseURL, 'x-forwarded-for': '10.200.0.1' },
  });
  await patientContext.close();

  await page.goto('/dashboard/users');
  const row = page.getByRole('row').filter({ hasText: patient.email });
  await row.getByRole('button', { name: /^Make Admin/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make Admin' }).click();
  await expect(page.getByText(messages.madeAdmin)).toBeVisible();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  // The role can be taken back, after a question; never the admin's own.
  const own = page.getByRole('row').filter({ hasText: admin.email });
  await expect(own.getByRole('button', { name: /^Remove Admin/ })).toHaveCount(0);
  await row.getByRole('button', { name: `Remove Admin, ${patient.name}` }).click();
  const question = page.getByRole('dialog');
  await expectNoAxeViolations(page, 'users page, asking before taking the admin role back');
  await question.getByRole('button', { name: 'Remove Admin' }).click();
  await expect(page.getByText(`${patient.name} is no longer an admin.`)).toBeVisible();
  await expect(row.getByRole('button', { name: `Make Admin, ${patient.name}` })).toBeVisible();
});

test('an admin adds a doctor with a photo, likes and deletes it', async ({ page, signUp }) => {
  const admin = await signUp(newPatient('doctoradmin'));
  await adminCli('grant', admin.email);
  // Unique to the try: a retry never meets the doctor an interrupted try added.
  const name = `Dr. Ana Lima ${admin.name.split(' ').at(-1)}`;

  await page.goto('/dashboard/add-doctor');
  const photo = await sharp({
    create: { width: 96, height: 96, channels: 3, background: '#0f766e' },
  })
    .png()
    .toBuffer();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(`ana.lima.${admin.email}`);
  await page.getByLabel('Select Specialty').selectOption({ label: 'Teeth Whitening' });
  await page
    .getByLabel('Photo')
    .setInputFiles({ name: 'ana.png', mimeType: 'image/png', buffer: photo });
  await page.getByRole('button', { name: 'Add Doctor' }).click();
  await expect(page.getByText(messages.doctorAdded)).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');

  await page.goto('/dashboard/manage-doctor');
  const doctor = page.getByRole('row').filter({ hasText: name });
  await expect(doctor).toContainText('Teeth Whitening');
  const image = doctor.locator('img').first();
  await expect(image).toHaveAttribute('src', /^\/uploads\/[\w-]+\.webp$/);
  expect(
    await image.evaluate((element) => (element as HTMLImageElement).naturalWidth),
  ).toBeGreaterThan(0);

  await doctor.getByRole('button', { name: `Like ${name}`, exact: true }).click();
  await expect(page.getByText(messages.likeAdded)).toBeVisible();

  await doctor.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  const confirm = page.getByRole('dialog', { name: messages.doctorDeleteConfirm(name) });
  await confirm.getByRole('button', { name: /delete/i }).click();
  await expect(page.getByText(messages.doctorDeleted(name))).toBeVisible();
  await expect(doctor).toHaveCount(0);
});

test("a patient's make-admin call is refused, and the screen says so in the spec's words", async ({
  page,
  signUp,
}) => {
  const patient = await signUp();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /My Appointments/ })).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const call = await page.request.put(`/api/user/admin/${patient.email}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(call.status()).toBe(403);
  expect((await call.json()).message).toBe(messages.makeAdminForbidden);

  // An admin whose role is taken away while the users page is open sees the same words.
  const other = newPatient('other');
  await page.request.post('/api/auth/sign-up/email', {
    data: other,
    headers: { origin: baseURL, 'x-forwarded-for': '10.201.0.1' },
  });
  const admin = newPatient('demoted');
  await page.context().clearCookies();
  await page.request.post('/api/auth/sign-up/email', {
    data: admin,
    headers: { origin: baseURL },
  });
  await adminCli('grant', admin.email);
  await page.goto('/dashboard/users');
  const row = page.getByRole('row').filter({ hasText: other.email });
  await expect(row.getByRole('button', { name: /^Make Admin/ })).toBeVisible();
  await adminCli('revoke', admin.email);
  await row.getByRole('button', { name: /^Make Admin/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make Admin' }).click();
  await expect(page.getByText(messages.makeAdminForbidden)).toBeVisible();
});

test('the add-doctor form words each validation error as the spec does', async ({
  page,
  signUp,
}) => {
  const admin = await signUp(newPatient('formadmin'));
  await adminCli('grant', admin.email);
  await page.goto('/dashboard/add-doctor');
  await page.getByRole('button', { name: 'Add Doctor' }).click();
  await expect(page.getByText(messages.nameRequired)).toBeVisible();
  await expect(page.getByText(messages.emailRequired)).toBeVisible();
  await expect(page.getByText(messages.imageRequired)).toBeVisible();
  await page.getByLabel('Email').fill('not an email');
  await page.getByRole('button', { name: 'Add Doctor' }).click();
  await expect(page.getByText(messages.emailInvalid)).toBeVisible();
});
