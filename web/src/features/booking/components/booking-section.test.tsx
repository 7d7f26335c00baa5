import {
  addDays,
  type Clinic,
  formatMediumDate,
  type IsoDate,
  messages,
  todayIn,
} from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { patient, signIn, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { BookingSection } from './booking-section';

const clinic: Clinic = {
  name: 'Doctors Portal',
  phone: '+1 555 010 0000',
  address: '1 Main Street',
  email: 'desk@clinic.test',
  hours: 'Sat - Fri, 10:00 AM to 10:00 PM',
  timeZone: 'America/New_York',
};
const day: IsoDate = addDays(todayIn(clinic.timeZone), 10);
const medium = formatMediumDate(day);

let api: ApiStub;
beforeEach(() => {
  api = stubApi({
    'GET /api/clinic': { body: clinic },
    'GET /api/available': { body: [treatment] },
  });
  signIn(api, patient);
});

describe('the booking page', () => {
  it("reads the day from the address (?date=YYYY-MM-DD), asks for it in the medium format and shows it as 'Available Appointments on {date}'", async () => {
    renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}` });
    expect(
      await screen.findByRole('heading', { name: `Available Appointments on ${medium}` }),
    ).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Teeth Cleaning' });
    const [request] = api.callsTo('GET /api/available');
    expect(request?.url.searchParams.get('date')).toBe(medium);
  });

  it('asks for the day’s slots again after a booking attempt, even a refused one', async () => {
    api.on('POST /api/booking', {
      status: 409,
      body: { success: false, reason: 'slot', message: messages.slotTaken },
    });
    const { user } = renderInPortal(<BookingSection level={1} />, {
      at: `/appointment?date=${day}`,
    });
    const card = (await screen.findByRole('heading', { name: 'Teeth Cleaning' })).closest('li');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Book Appointment' })).toBeEnabled(),
    );
    await user.click(within(card as HTMLElement).getByRole('button', { name: 'Book Appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    expect(within(dialog).getByLabelText('Date')).toHaveValue(medium);
    await user.selectOptions(within(dialog).getByLabelText('Time slot'), treatment.slots[0] ?? '');
    await user.type(within(dialog).getByLabelText('Phone number'), '+1 555 010 2222');
    await user.type(within(dialog).getByLabelText('Age'), '34');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText(messages.slotTaken)).toBeInTheDocument();
    expect(api.callsTo('POST /api/booking')[0]?.body).toMatchObject({ date: medium });
    await waitFor(() => expect(api.callsTo('GET /api/available')).toHaveLength(2));
  });
});
