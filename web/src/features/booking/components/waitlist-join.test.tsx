import {
  addDays,
  formatMediumDate,
  type IsoDate,
  todayIn,
  waitlistMessages,
} from '@doctors-portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, failure, stubApi } from '../../../test/fetch-stub';
import { clinic, patient, signIn, treatment } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { BookingSection } from './booking-section';

const day: IsoDate = addDays(todayIn(clinic.timeZone), 10);
const medium = formatMediumDate(day);
const full = { ...treatment, slots: [] };
const [first = '', second = ''] = treatment.slots;

let api: ApiStub;
beforeEach(() => {
  api = stubApi({ 'GET /api/clinic': { body: clinic }, 'GET /api/available': { body: [full] } });
});

const showDay = (search = '') =>
  renderInPortal(<BookingSection level={1} />, { at: `/appointment?date=${day}${search}` });

describe('the waitlist on the booking page', () => {
  it("offers 'Join the waitlist' on a card with no free slot, sends the medium date and confirms", async () => {
    signIn(api, patient);
    api.on('POST /api/waitlist', { status: 201, body: { id: 'entry-1', treatment: full.name } });
    const { user } = showDay();
    const card = (await screen.findByRole('heading', { name: full.name })).closest('li');
    expect(
      within(card as HTMLElement).getByRole('button', { name: 'Book Appointment, Teeth Cleaning' }),
    ).toBeDisabled();
    await user.click(
      within(card as HTMLElement).getByRole('button', {
        name: 'Join the waitlist, Teeth Cleaning',
      }),
    );
    expect(await screen.findByText(waitlistMessages.joined(full.name, medium))).toBeInTheDocument();
    expect(api.callsTo('POST /api/waitlist')[0]?.body).toEqual({
      treatmentId: full._id,
      date: medium,
    });
  });

  it('says the patient is on the waitlist, once joined, instead of offering it again', async () => {
    signIn(api, patient);
    const entries: object[] = [];
    api.on('GET /api/waitlist', () => ({ body: { entries } }));
    api.on('POST /api/waitlist', () => {
      entries.push({
        id: 'entry-1',
        treatmentId: full._id,
        treatment: full.name,
        date: medium,
        joinedAt: new Date().toISOString(),
      });
      return { status: 201, body: { id: 'entry-1', treatment: full.name } };
    });
    const { user } = showDay();
    await user.click(
      await screen.findByRole('button', { name: 'Join the waitlist, Teeth Cleaning' }),
    );
    const joined = await screen.findByText(/You are on the waitlist: we will email you/);
    expect(joined).toBeVisible();
    expect(
      screen.queryByRole('button', { name: 'Join the waitlist, Teeth Cleaning' }),
    ).not.toBeInTheDocument();
    // The button is gone: focus goes to what took its place, not to the page's start.
    expect(joined).toHaveFocus();
  });

  it('says why the server refused the join', async () => {
    signIn(api, patient);
    api.on('POST /api/waitlist', failure(409, waitlistMessages.alreadyWaiting));
    const { user } = showDay();
    await user.click(
      await screen.findByRole('button', { name: 'Join the waitlist, Teeth Cleaning' }),
    );
    expect(await screen.findByText(waitlistMessages.alreadyWaiting)).toBeInTheDocument();
  });

  it('offers no waitlist on a card with free slots', async () => {
    signIn(api, patient);
    api.on('GET /api/available', { body: [treatment] });
    showDay();
    await screen.findByRole('heading', { name: treatment.name });
    expect(
      screen.queryByRole('button', { name: 'Join the waitlist, Teeth Cleaning' }),
    ).not.toBeInTheDocument();
  });

  it('sends a visitor to sign in first, without joining', async () => {
    signIn(api, null);
    const { user } = showDay();
    await user.click(
      await screen.findByRole('button', { name: 'Join the waitlist, Teeth Cleaning' }),
    );
    expect(await screen.findByRole('heading', { name: /log ?in/i })).toBeInTheDocument();
    expect(api.callsTo('POST /api/waitlist')).toHaveLength(0);
  });

  it('joins on the way back from signing in (?wait=)', async () => {
    signIn(api, patient);
    api.on('POST /api/waitlist', { status: 201, body: { id: 'entry-1', treatment: full.name } });
    showDay(`&wait=${full._id}`);
    expect(await screen.findByText(waitlistMessages.joined(full.name, medium))).toBeInTheDocument();
    expect(api.callsTo('POST /api/waitlist')).toHaveLength(1);
  });
});

describe("a waitlist mail's link (?book=&slot=)", () => {
  beforeEach(() => signIn(api, patient));

  it('opens the booking form on the offered slot while it is free', async () => {
    api.on('GET /api/available', { body: [treatment] });
    showDay(`&book=${treatment._id}&slot=${encodeURIComponent(second)}`);
    const dialog = await screen.findByRole('dialog', { name: treatment.name });
    await waitFor(() => expect(within(dialog).getByLabelText('Time slot')).toHaveValue(second));
  });

  it("says 'This slot has just been taken' when someone booked it first, and opens no form", async () => {
    api.on('GET /api/available', { body: [{ ...treatment, slots: [first] }] });
    showDay(`&book=${treatment._id}&slot=${encodeURIComponent(second)}`);
    expect(await screen.findByText(waitlistMessages.slotTaken)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
