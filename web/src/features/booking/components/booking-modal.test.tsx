import {
  bookingCreatedSchema,
  bookingRefusedSchema,
  type IsoDate,
  messages,
} from '@doctors-portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../lib/auth/auth-provider';
import { type ApiStub, type Reply, stubApi } from '../../../test/fetch-stub';
import { booking, patient, signIn, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import BookingModal from './booking-modal';

const day = '2030-01-05' as IsoDate;
const slot = '08:30 AM - 09:00 AM';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, patient);
});

/** Opens the modal for Teeth Cleaning on Jan 5, 2030, fills it in and submits it. */
async function book(answer: Reply) {
  api.on('POST /api/booking', answer);
  const onClose = vi.fn();
  const { user } = renderInPortal(
    <BookingModal treatment={treatment} date={day} onClose={onClose} />,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
  await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue(patient.name));
  await user.selectOptions(screen.getByLabelText('Time slot'), slot);
  await user.type(screen.getByLabelText('Phone number'), '+1 555 010 2222');
  await user.type(screen.getByLabelText('Age'), '34');
  await user.click(screen.getByRole('button', { name: 'Submit' }));
  return { dialog, onClose };
}

const refused = (refusal: Parameters<typeof bookingRefusedSchema.encode>[0]): Reply => ({
  status: 409,
  body: bookingRefusedSchema.encode(refusal),
});

describe('the booking modal', () => {
  it('shows the chosen day in the medium format, read-only', async () => {
    renderInPortal(<BookingModal treatment={treatment} date={day} onClose={() => {}} />);
    const date = await screen.findByLabelText('Date');
    expect(date).toHaveValue('Jan 5, 2030');
    expect(date).toHaveAttribute('readonly');
    expect(screen.getByRole('option', { name: messages.slotPlaceholder })).toBeDisabled();
  });

  it("books the slot, sending the day as 'Jan 5, 2030', and says 'Appointment is set On: {date} At {slot}'", async () => {
    const { onClose } = await book({
      status: 201,
      body: bookingCreatedSchema.encode({ success: true, booking: booking({ date: day, slot }) }),
    });
    expect(
      await screen.findByText(`Appointment is set On: Jan 5, 2030 At ${slot}`),
    ).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    const [request] = api.callsTo('POST /api/booking');
    expect(request?.body).toMatchObject({
      treatmentId: treatment._id,
      date: 'Jan 5, 2030',
      slot,
      phone: '+1 555 010 2222',
      patientMail: patient.email,
    });
  });

  it("answers the patient's conflict with 'You already have an Appointment On: {date} At {slot}' of the booking they hold", async () => {
    const { onClose } = await book(
      refused({
        success: false,
        reason: 'patient',
        message: 'You already hold this treatment on this day.',
        booking: { date: '2030-01-05' as IsoDate, slot: '08:00 AM - 08:30 AM', treatment: 'x' },
      }),
    );
    expect(
      await screen.findByText(
        'You already have an Appointment On: Jan 5, 2030 At 08:00 AM - 08:30 AM',
      ),
    ).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
  });

  it('says the slot was just taken when someone else booked it first', async () => {
    await book(refused({ success: false, reason: 'slot', message: messages.slotTaken }));
    expect(await screen.findByText(messages.slotTaken)).toBeInTheDocument();
  });

  it("shows the server's own message when the slot overlaps another of the patient's bookings", async () => {
    const overlap = 'You have Cavity Filling on Jan 5, 2030 at 08:15 AM - 09:15 AM at that time.';
    await book(
      refused({
        success: false,
        reason: 'overlap',
        message: overlap,
        booking: { date: day, slot: '08:15 AM - 09:15 AM', treatment: 'Cavity Filling' },
      }),
    );
    expect(await screen.findByText(overlap)).toBeInTheDocument();
  });

  it('tells a patient whose address is not verified why, and keeps Submit disabled', async () => {
    signIn(api, { ...patient, emailVerified: false });
    renderInPortal(<BookingModal treatment={treatment} date={day} onClose={() => {}} />);
    expect(
      await screen.findByText(/Please verify your email address before booking/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit' })).toBeDisabled();
  });
});

describe('the dentist choice', () => {
  const ana = { _id: 'doctor-a', name: 'Dr. Ana Ruiz', image: '/api/image/ana.png' };
  const ben = { _id: 'doctor-b', name: 'Ben Okafor', image: '/api/image/ben.png' };

  /** Opens the modal and picks the slot; the doctors free then are `free(slot)`. */
  async function open(free: (slot: string) => unknown[]) {
    api.on('GET /api/doctors/available', (call) => ({
      body: free(call.url.searchParams.get('slot') ?? ''),
    }));
    const view = renderInPortal(
      <BookingModal treatment={treatment} date={day} onClose={() => {}} />,
    );
    await screen.findByRole('dialog', { name: 'Teeth Cleaning' });
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue(patient.name));
    await view.user.selectOptions(screen.getByLabelText('Time slot'), slot);
    return view;
  }

  async function submit(user: ReturnType<typeof renderInPortal>['user']) {
    await user.type(screen.getByLabelText('Phone number'), '+1 555 010 2222');
    await user.type(screen.getByLabelText('Age'), '34');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
  }

  const created = (doctor: { _id: string; name: string } | null): Reply => ({
    status: 201,
    body: bookingCreatedSchema.encode({
      success: true,
      booking: booking({ date: day, slot, doctor }),
    }),
  });

  it('offers any available dentist by default, and the doctors free for the slot', async () => {
    const { user } = await open(() => [ana, ben]);
    const group = await screen.findByRole('group', { name: 'Dentist' });
    expect(screen.getByRole('radio', { name: 'Any available dentist' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Dr. Ana Ruiz' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Ben Okafor' })).toBeInTheDocument();
    expect(group.querySelectorAll('img')).toHaveLength(2);
    const [asked] = api.callsTo('GET /api/doctors/available');
    expect(Object.fromEntries(asked?.url.searchParams ?? [])).toEqual({
      treatmentId: treatment._id,
      date: 'Jan 5, 2030',
      slot,
    });

    api.on('POST /api/booking', created({ _id: ana._id, name: ana.name }));
    await submit(user);
    expect(
      await screen.findByText(`Appointment is set On: Jan 5, 2030 At ${slot}`),
    ).toBeInTheDocument();
    // With 'any', the server picks the doctor; the toast's follow-up names them.
    expect(screen.getByText('With Dr. Ana Ruiz.')).toBeInTheDocument();
    const [request] = api.callsTo('POST /api/booking');
    expect(request?.body).not.toHaveProperty('doctorId');
  });

  it('sends the chosen doctor’s id, and names them after booking', async () => {
    const { user } = await open(() => [ana, ben]);
    await user.click(await screen.findByRole('radio', { name: 'Ben Okafor' }));
    expect(screen.getByRole('radio', { name: 'Ben Okafor' })).toBeChecked();
    api.on('POST /api/booking', created({ _id: ben._id, name: ben.name }));
    await submit(user);
    expect(await screen.findByText('With Dr. Ben Okafor.')).toBeInTheDocument();
    const [request] = api.callsTo('POST /api/booking');
    expect(request?.body).toMatchObject({ doctorId: 'doctor-b', slot });
  });

  it('asks again when the slot changes, and keeps a choice only while that doctor is free', async () => {
    const { user } = await open((chosen) => (chosen === slot ? [ana, ben] : [ana]));
    await user.click(await screen.findByRole('radio', { name: 'Ben Okafor' }));
    await user.selectOptions(screen.getByLabelText('Time slot'), treatment.slots[0] ?? '');
    await waitFor(() => expect(screen.queryByRole('radio', { name: 'Ben Okafor' })).toBeNull());
    expect(
      api.callsTo('GET /api/doctors/available').map((call) => call.url.searchParams.get('slot')),
    ).toEqual([slot, treatment.slots[0]]);
    expect(screen.getByRole('radio', { name: 'Any available dentist' })).toBeChecked();
    expect(screen.getByText(/Ben Okafor is not free at this time/)).toBeInTheDocument();
  });

  it('is not shown when no doctor performs the treatment, and nothing else changes', async () => {
    const { user } = await open(() => []);
    await waitFor(() => expect(api.callsTo('GET /api/doctors/available')).toHaveLength(1));
    expect(screen.queryByRole('group', { name: 'Dentist' })).toBeNull();
    api.on('POST /api/booking', created(null));
    await submit(user);
    expect(
      await screen.findByText(`Appointment is set On: Jan 5, 2030 At ${slot}`),
    ).toBeInTheDocument();
    expect(screen.queryByText(/^With /)).toBeNull();
    expect(api.callsTo('POST /api/booking')[0]?.body).not.toHaveProperty('doctorId');
  });
});

/** The modal as the booking page opens it: for a signed-in patient, anew for each booking. */
function BookingPage() {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  if (!user) return null;
  return open ? (
    <BookingModal treatment={treatment} date={day} onClose={() => setOpen(false)} />
  ) : (
    <button type="button" onClick={() => setOpen(true)}>
      Book
    </button>
  );
}

describe("the profile's phone and age", () => {
  const created: Reply = {
    status: 201,
    body: bookingCreatedSchema.encode({ success: true, booking: booking({ date: day, slot }) }),
  };

  it('fills the form in from the profile, and the patient may change them for this visit', async () => {
    signIn(api, { ...patient, phone: '+1 555 010 7788', age: 41 });
    api.on('POST /api/booking', created);
    const { user } = renderInPortal(<BookingPage />);
    await user.click(await screen.findByRole('button', { name: 'Book' }));
    const phone = await screen.findByLabelText('Phone number');
    expect(phone).toHaveValue('+1 555 010 7788');
    expect(screen.getByLabelText('Age')).toHaveValue(41);
    await user.clear(phone);
    await user.type(phone, '+1 555 010 9900');
    await user.selectOptions(screen.getByLabelText('Time slot'), slot);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.callsTo('POST /api/booking')).toHaveLength(1));
    expect(api.callsTo('POST /api/booking')[0]?.body).toMatchObject({
      phone: '+1 555 010 9900',
      age: 41,
    });
  });

  it('starts empty without them, and the next booking starts with what the first one saved', async () => {
    // The server saves a first booking's phone and age to the profile: its session says so.
    api.on('POST /api/booking', (call) => {
      const { phone, age } = call.body as { phone: string; age: number };
      signIn(api, { ...patient, phone, age });
      return created;
    });
    const { user } = renderInPortal(<BookingPage />);
    await user.click(await screen.findByRole('button', { name: 'Book' }));
    expect(await screen.findByLabelText('Phone number')).toHaveValue('');
    expect(screen.getByLabelText('Age')).toHaveValue(null);
    await user.selectOptions(screen.getByLabelText('Time slot'), slot);
    await user.type(screen.getByLabelText('Phone number'), '+1 555 010 2222');
    await user.type(screen.getByLabelText('Age'), '34');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText(`Appointment is set On: Jan 5, 2030 At ${slot}`),
    ).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo('GET /api/auth/get-session')).toHaveLength(2));

    await user.click(await screen.findByRole('button', { name: 'Book' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Phone number')).toHaveValue('+1 555 010 2222'),
    );
    expect(screen.getByLabelText('Age')).toHaveValue(34);
  });
});
