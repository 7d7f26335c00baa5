import type { IsoDate } from '@doctors-portal/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionEndedError } from '../lib/api-client';
import { type ApiStub, failure, stubApi } from '../test/fetch-stub';
import { booking, onTheWire } from '../test/fixtures';
import { getMyBookings, isUpcoming } from './my-bookings';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

describe("the patient's bookings", () => {
  it("decode each date from the wire's 'Jan 5, 2030' to the IsoDate '2030-01-05'", async () => {
    api.on('GET /api/booking', { body: [onTheWire(booking())] });
    expect(onTheWire(booking()).date).toBe('Jan 5, 2030');
    const [mine] = await getMyBookings('maya@mail.com');
    expect(mine?.date).toBe('2030-01-05');
    expect(mine).toEqual(booking());
  });

  it('are asked for by the patient’s address', async () => {
    api.on('GET /api/booking', { body: [] });
    await getMyBookings('maya+1@mail.com');
    expect(api.calls[0]?.url.searchParams.get('patientMail')).toBe('maya+1@mail.com');
  });

  it('refuse a date that is not on the calendar', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    api.on('GET /api/booking', { body: [{ ...onTheWire(booking()), date: 'Feb 30, 2030' }] });
    await expect(getMyBookings('maya@mail.com')).rejects.toMatchObject({
      message: 'The portal sent an answer this page cannot read. Please try again.',
    });
  });

  it('say the session has ended on a 401 or a 403', async () => {
    for (const status of [401, 403]) {
      api.on('GET /api/booking', failure(status, 'Please log in first.'));
      await expect(getMyBookings('maya@mail.com')).rejects.toBeInstanceOf(SessionEndedError);
    }
  });
});

describe('a booking still to come', () => {
  const today = '2030-01-05' as IsoDate;
  it('is booked or confirmed, on today or a later day', () => {
    expect(isUpcoming(booking(), today)).toBe(true);
    expect(isUpcoming(booking({ status: 'confirmed', date: '2030-02-01' as IsoDate }), today)).toBe(
      true,
    );
  });

  it('is not one of an earlier day, nor one cancelled or already seen to', () => {
    expect(isUpcoming(booking({ date: '2030-01-04' as IsoDate }), today)).toBe(false);
    for (const status of ['cancelled', 'arrived', 'completed', 'no_show'] as const) {
      expect(isUpcoming(booking({ status }), today)).toBe(false);
    }
  });
});
