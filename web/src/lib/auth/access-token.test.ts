import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, stubApi } from '../../test/fetch-stub';
import {
  ACCESS_TOKEN_KEY,
  clearAccessToken,
  currentAccessToken,
  startAccessToken,
} from './access-token';

const MINUTE = 60 * 1000;
const START = new Date('2030-01-05T09:00:00Z');
const LIFETIME = 15 * MINUTE;

let api: ApiStub;
let issued = 0;
beforeEach(() => {
  vi.useFakeTimers({ now: START });
  issued = 0;
  // The server issues 15-minute tokens: token-1, token-2, …
  api = stubApi({
    'PUT /api/user/:email': () => {
      issued += 1;
      return {
        body: {
          token: `token-${issued}`,
          expiresAt: new Date(Date.now() + LIFETIME).toISOString(),
        },
      };
    },
  });
});

const renewals = () => api.callsTo('PUT /api/user/:email').length;

describe('the API access token', () => {
  it('is issued for the signed-in user when their session starts', async () => {
    await startAccessToken('maya@mail.com');
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('token-1');
    expect(api.calls[0]?.path).toBe('/api/user/maya%40mail.com');
    expect(api.calls[0]?.headers.get('authorization')).toBeNull();
  });

  it('is renewed about 5 minutes before it ends', async () => {
    await startAccessToken('maya@mail.com');
    await vi.advanceTimersByTimeAsync(LIFETIME - 5 * MINUTE - 1000);
    expect(renewals()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(renewals()).toBe(2);
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('token-2');
  });

  it('is sent as it is until 30 seconds before it ends', async () => {
    await startAccessToken('maya@mail.com');
    vi.setSystemTime(START.getTime() + LIFETIME - 31 * 1000);
    expect(await currentAccessToken()).toBe('token-1');
    expect(renewals()).toBe(1);
  });

  it('is treated as ended 30 seconds before it ends, and renewed before it is sent', async () => {
    await startAccessToken('maya@mail.com');
    vi.setSystemTime(START.getTime() + LIFETIME - 30 * 1000);
    expect(await currentAccessToken()).toBe('token-2');
    expect(renewals()).toBe(2);
  });

  it('is renewed once for calls that need it at the same time', async () => {
    await startAccessToken('maya@mail.com');
    vi.setSystemTime(START.getTime() + LIFETIME);
    const tokens = await Promise.all([currentAccessToken(), currentAccessToken()]);
    expect(tokens).toEqual(['token-2', 'token-2']);
    expect(renewals()).toBe(2);
  });

  it('is forgotten on sign-out: none is sent, and none is renewed later', async () => {
    await startAccessToken('maya@mail.com');
    clearAccessToken();
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(await currentAccessToken()).toBeNull();
    await vi.advanceTimersByTimeAsync(LIFETIME);
    expect(renewals()).toBe(1);
  });

  it('is renewed on time on a device whose clock is 11 minutes ahead of the server', async () => {
    const ahead = 11 * MINUTE;
    api.on('PUT /api/user/:email', () => {
      issued += 1;
      const serverNow = Date.now() - ahead;
      return {
        headers: { date: new Date(serverNow).toUTCString() },
        body: { token: `token-${issued}`, expiresAt: new Date(serverNow + LIFETIME).toISOString() },
      };
    });
    await startAccessToken('maya@mail.com');
    await vi.advanceTimersByTimeAsync(LIFETIME - 5 * MINUTE - 1000);
    expect(renewals()).toBe(1);
    expect(await currentAccessToken()).toBe('token-1');
    await vi.advanceTimersByTimeAsync(1000);
    expect(renewals()).toBe(2);
  });

  it('is sent only while it lives on a device whose clock is behind the server', async () => {
    const behind = 11 * MINUTE;
    api.on('PUT /api/user/:email', () => {
      issued += 1;
      const serverNow = Date.now() + behind;
      return {
        headers: { date: new Date(serverNow).toUTCString() },
        body: { token: `token-${issued}`, expiresAt: new Date(serverNow + LIFETIME).toISOString() },
      };
    });
    await startAccessToken('maya@mail.com');
    vi.setSystemTime(START.getTime() + LIFETIME - 30 * 1000);
    expect(await currentAccessToken()).toBe('token-2');
  });
});
