import { apiWithHeaders } from '../api-client';

/**
 * The API access token (spec: `accessToken` in local storage). It is short-lived: renewed
 * about 5 minutes before it ends, and treated as ended 30 seconds before it does.
 */
export const ACCESS_TOKEN_KEY = 'accessToken';
const EXPIRES_KEY = 'accessTokenExpiresAt';
const RENEW_BEFORE_MS = 5 * 60 * 1000;
const EXPIRY_MARGIN_MS = 30 * 1000;
/** Never renewed sooner than this after the last time: whatever the clocks say, no loop. */
const MIN_RENEW_GAP_MS = 10 * 1000;

let owner: string | null = null;
let pending: Promise<string> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

const expiresAt = () => Number(localStorage.getItem(EXPIRES_KEY) ?? 0);

function store(token: string, expiry: number) {
  localStorage.setItem(ACCESS_TOKEN_KEY, token);
  localStorage.setItem(EXPIRES_KEY, String(expiry));
  clearTimeout(timer);
  timer = setTimeout(
    () => void renew().catch(() => {}),
    Math.max(MIN_RENEW_GAP_MS, expiry - RENEW_BEFORE_MS - Date.now()),
  );
}

/**
 * When a token ends on this device's clock: the server's expiry, moved by how far the server's
 * clock (its answer's Date) is from ours. A device whose clock is ahead would otherwise take a
 * fresh token for one about to end and renew it at once, again and again; one behind would send
 * ended tokens.
 */
function endOnDevice(expiresAt: string, serverDate: string | null): number {
  const expiry = Date.parse(expiresAt);
  const server = serverDate ? Date.parse(serverDate) : Number.NaN;
  return Number.isNaN(server) ? expiry : Date.now() + (expiry - server);
}

/** Exchanges the session for a new token ("user sync": PUT /api/user/{email}). */
function renew(): Promise<string> {
  if (!owner) return Promise.reject(new Error('Not signed in'));
  const email = owner;
  pending ??= apiWithHeaders<{ token: string; expiresAt: string }>(
    `/user/${encodeURIComponent(email)}`,
    { method: 'PUT', body: { email }, anonymous: true },
  )
    .then(({ data: { token, expiresAt: expiry }, headers }) => {
      if (owner === email) store(token, endOnDevice(expiry, headers.get('date')));
      return token;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Starts keeping a token for the signed-in user; resolves once one is stored. */
export async function startAccessToken(email: string): Promise<void> {
  const switched = owner !== email;
  owner = email;
  const valid =
    localStorage.getItem(ACCESS_TOKEN_KEY) && expiresAt() - EXPIRY_MARGIN_MS > Date.now();
  if (switched || !valid) await renew();
  else store(localStorage.getItem(ACCESS_TOKEN_KEY) as string, expiresAt());
}

/** The token to send now: renewed first when it has ended or is about to. */
export async function currentAccessToken(): Promise<string | null> {
  if (!owner) return null;
  if (pending || expiresAt() - EXPIRY_MARGIN_MS <= Date.now()) return renew();
  return localStorage.getItem(ACCESS_TOKEN_KEY);
}

/** Forgets the token (sign-out, ended session). */
export function clearAccessToken() {
  owner = null;
  clearTimeout(timer);
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  localStorage.removeItem(EXPIRES_KEY);
}
