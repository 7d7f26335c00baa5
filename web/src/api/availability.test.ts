import type { IsoDate } from '@doctors-portal/contract';
import { QueryClient, skipToken } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, stubApi } from '../test/fetch-stub';
import { treatment } from '../test/fixtures';
import { getAvailability, monthAvailabilityQuery } from './availability';
import { bookingKeys } from './booking-keys';

let api: ApiStub;
beforeEach(() => {
  api = stubApi({ 'GET /api/available': { body: [treatment] } });
});

describe('the day’s availability', () => {
  it("asks for the day in the spec's medium format, without a token", async () => {
    await getAvailability('2030-01-05' as IsoDate);
    const [call] = api.calls;
    expect(call?.url.searchParams.get('date')).toBe('Jan 5, 2030');
    expect(call?.url.search).toBe('?date=Jan%205%2C%202030');
    expect(call?.headers.get('authorization')).toBeNull();
  });

  it('reads the treatments with their free slots and price', async () => {
    expect(await getAvailability('2030-01-05' as IsoDate)).toEqual([treatment]);
  });

  it('refuses an answer that is not a list of treatments', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    api.on('GET /api/available', { body: [{ name: 'Teeth Cleaning' }] });
    await expect(getAvailability('2030-01-05' as IsoDate)).rejects.toMatchObject({
      message: 'The portal sent an answer this page cannot read. Please try again.',
    });
  });
});

describe('a month’s day statuses', () => {
  const month = {
    month: '2031-03',
    days: [
      { date: '2031-03-01', status: 'closed', label: 'Closed on Saturdays' },
      { date: '2031-03-02', status: 'full' },
    ],
  };

  it('asks for the month without a token, reads its days, and is kept under every day’s availability', async () => {
    api.on('GET /api/available/month', { body: month });
    const client = new QueryClient();
    const query = monthAvailabilityQuery('2031-03');
    expect(query.queryKey.slice(0, bookingKeys.available.length)).toEqual(bookingKeys.available);
    expect(await client.fetchQuery(query)).toEqual(month);
    const [call] = api.callsTo('GET /api/available/month');
    expect(call?.url.search).toBe('?month=2031-03');
    expect(call?.headers.get('authorization')).toBeNull();
  });

  it('asks nothing before the month is known', () => {
    expect(monthAvailabilityQuery(null).queryFn).toBe(skipToken);
  });

  it('refuses a day with a status it does not know', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    api.on('GET /api/available/month', {
      body: { month: '2031-03', days: [{ date: '2031-03-01', status: 'maybe' }] },
    });
    await expect(
      new QueryClient().fetchQuery(monthAvailabilityQuery('2031-03')),
    ).rejects.toMatchObject({
      message: 'The portal sent an answer this page cannot read. Please try again.',
    });
  });
});
