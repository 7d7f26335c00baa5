import {
  bookingCreatedSchema,
  bookingRefusedSchema,
  type IsoDate,
  messages,
} from '@doctors-portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
