import { type Doctor, doctorSchema, formatMediumDate, messages } from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { dayFromToday, stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { ManageDoctorsPage } from './manage-doctors-page';

const services = [
  { _id: 'teeth-cleaning', name: 'Teeth Cleaning' },
  { _id: 'cavity-filling', name: 'Cavity Filling' },
  { _id: 'teeth-whitening', name: 'Teeth Whitening' },
];

/** A day off Dr. Ruiz already has, and one an edit adds. */
const [dayOff, newDayOff] = [dayFromToday(40), dayFromToday(64)];

const ana: Doctor = {
  _id: 'doctor-1',
  name: 'Dr. Ana Ruiz',
  email: 'ana@clinic.test',
  specialty: 'Teeth Cleaning',
  image: '/api/image/ana.png',
  treatmentIds: ['teeth-cleaning', 'cavity-filling'],
  workDays: [0, 1, 2, 3, 4, 5, 6],
  daysOff: [dayOff],
};

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi({
    'GET /api/doctor': { body: [ana] },
    'GET /api/service': { body: services },
  });
});

const show = () =>
  renderInPortal(<ManageDoctorsPage />, {
    at: '/dashboard/manage-doctor',
    path: '/dashboard/manage-doctor',
  });

describe('editing a doctor', () => {
  it('opens with the doctor as stored and sends only what changed', async () => {
    api.on('PATCH /api/doctor/:id', (call) => ({
      body: { ...doctorSchema.parse({ ...ana, ...(call.body as object) }), bookings: [] },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Edit Dr. Ana Ruiz' }));
    const form = within(screen.getByRole('region', { name: 'Edit Dr. Ana Ruiz' }));
    expect(form.getByLabelText('Name')).toHaveValue('Dr. Ana Ruiz');
    expect(form.getByLabelText('Select Specialty')).toHaveValue('Teeth Cleaning');
    const also = within(form.getByRole('group', { name: 'Also performs' }));
    // The specialty is not offered as an extra; the doctor's other treatment is ticked.
    expect(also.queryByLabelText('Teeth Cleaning')).toBeNull();
    await waitFor(() => expect(also.getByLabelText('Cavity Filling')).toBeChecked());
    expect(also.getByLabelText('Teeth Whitening')).not.toBeChecked();
    const worksOn = within(form.getByRole('group', { name: 'Works on' }));
    expect(worksOn.getByLabelText('Saturday')).toBeChecked();

    await user.clear(form.getByLabelText('Name'));
    await user.type(form.getByLabelText('Name'), 'Dr. Ana Ruiz-Lopez');
    await user.click(also.getByLabelText('Teeth Whitening'));
    await user.click(worksOn.getByLabelText('Saturday'));
    await user.click(worksOn.getByLabelText('Sunday'));
    await user.type(form.getByLabelText('Date off'), newDayOff);
    await user.click(form.getByRole('button', { name: 'Add day off' }));
    await user.click(form.getByRole('button', { name: `Remove ${formatMediumDate(dayOff)}` }));
    await user.click(form.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Saved Dr. Ana Ruiz-Lopez.')).toBeInTheDocument();
    const [patch] = api.callsTo('PATCH /api/doctor/:id');
    expect(patch?.path).toBe('/api/doctor/doctor-1');
    expect(patch?.body).toEqual({
      name: 'Dr. Ana Ruiz-Lopez',
      treatmentIds: ['cavity-filling', 'teeth-whitening'],
      workDays: [1, 2, 3, 4, 5],
      daysOff: [newDayOff],
    });
    expect(screen.queryByRole('region', { name: /^Edit / })).toBeNull();
  });

  it('warns of the bookings left with the doctor on days now away, and keeps them', async () => {
    const held = { _id: 'b-1', date: dayOff, slot: '10:00 AM - 10:30 AM', patientName: 'Jane Doe' };
    api.on('PATCH /api/doctor/:id', (call) => ({
      body: { ...doctorSchema.parse({ ...ana, ...(call.body as object) }), bookings: [held] },
    }));
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Edit Dr. Ana Ruiz' }));
    const form = within(screen.getByRole('region', { name: 'Edit Dr. Ana Ruiz' }));
    await user.click(
      within(form.getByRole('group', { name: 'Works on' })).getByLabelText('Monday'),
    );
    await user.click(form.getByRole('button', { name: 'Save changes' }));
    expect(
      await screen.findByText(
        `Saved Dr. Ana Ruiz. 1 booking is still with them on days they are now away or for treatments they no longer perform, the first on ${formatMediumDate(dayOff)}: see the schedule.`,
      ),
    ).toBeInTheDocument();
  });

  it('asks for at least one work day, and sends nothing until there is one', async () => {
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Edit Dr. Ana Ruiz' }));
    const worksOn = within(screen.getByRole('group', { name: 'Works on' }));
    for (const day of [
      'Sunday',
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
    ]) {
      await user.click(worksOn.getByLabelText(day));
    }
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Choose at least one work day.')).toBeInTheDocument();
    expect(api.callsTo('PATCH /api/doctor/:id')).toHaveLength(0);
  });

  it('shows the server’s reason beside the field it names', async () => {
    api.on(
      'PATCH /api/doctor/:id',
      failure(400, 'name: Name is Required', {
        issues: [{ field: 'name', message: 'Name is Required' }],
      }),
    );
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Edit Dr. Ana Ruiz' }));
    await user.type(screen.getByLabelText('Name'), ' Jr');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Name is Required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('deleting a doctor', () => {
  it('keeps the spec’s confirmation and notice', async () => {
    api.on('DELETE /api/doctor/:id', { body: { deletedCount: 1 } });
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Delete Dr. Ana Ruiz' }));
    const dialog = screen.getByRole('dialog', {
      name: messages.doctorDeleteConfirm('Dr. Ana Ruiz'),
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(messages.doctorDeleted('Dr. Ana Ruiz'))).toBeInTheDocument();
  });

  it('lists the upcoming bookings of a doctor the server keeps', async () => {
    const reason = 'This doctor still has 2 upcoming appointments: cancel or move them first.';
    const [first, second] = [dayFromToday(5), dayFromToday(6)];
    api.on(
      'DELETE /api/doctor/:id',
      failure(409, reason, {
        reason: 'doctor-booked',
        bookings: [
          { _id: 'b-1', date: first, slot: '10:00 AM - 10:30 AM', patientName: 'Jane Doe' },
          { _id: 'b-2', date: second, slot: '11:00 AM - 11:30 AM', patientName: 'Omar Haddad' },
        ],
      }),
    );
    const { user } = show();
    await user.click(await screen.findByRole('button', { name: 'Delete Dr. Ana Ruiz' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));

    const refusal = await screen.findByRole('region', { name: 'Dr. Ana Ruiz was not deleted' });
    expect(screen.getByRole('heading', { name: 'Dr. Ana Ruiz was not deleted' })).toHaveFocus();
    const list = within(refusal).getByRole('list', {
      name: 'Upcoming appointments with Dr. Ana Ruiz',
    });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      `${formatMediumDate(first)}, 10:00 AM - 10:30 AM: Jane Doe`,
      `${formatMediumDate(second)}, 11:00 AM - 11:30 AM: Omar Haddad`,
    ]);
    expect(within(list).getByRole('link', { name: formatMediumDate(first) })).toHaveAttribute(
      'href',
      `/dashboard/schedule?date=${first}`,
    );
    expect(within(refusal).getByText(reason)).toBeInTheDocument();
    expect(screen.queryByText(messages.doctorDeleteFailed)).toBeNull();
  });
});
