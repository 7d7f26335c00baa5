import type { IsoDate } from '@doctors-portal/contract';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, stubApi } from '../test/fetch-stub';
import { treatment } from '../test/fixtures';
import { getAvailability } from './availability';

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
