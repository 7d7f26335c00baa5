import type { z } from 'zod';

/**
 * The one way the web app talks to the portal's API: JSON in and out, the bearer access
 * token, and every failure turned into an ApiError with a message that can be shown as it is.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The server no longer honours the signed-in session (a 401 to a call that carried the token, or
 * another status the call names). The query client ends the session once for every screen
 * (lib/query-client.ts), and the route guards take the patient to the login page.
 */
export class SessionEndedError extends ApiError {
  constructor(status: number, message: string, body: unknown = null) {
    super(status, message, body);
    this.name = 'SessionEndedError';
  }
}

/** What a screen says of a failed change: the server's reason, or `fallback` when it gave none. */
export function reasonOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

type Body = Record<string, unknown> | unknown[] | FormData;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: Body;
  signal?: AbortSignal;
  /** Leave out the bearer token (public calls, and the calls that obtain one). */
  anonymous?: boolean;
  /**
   * The answers that mean the session has ended: 401 unless given for a call that carries the
   * token (My Appointments adds 403, spec section 4); none unless given for an anonymous one
   * (the sign-in service's own calls on the session cookie give [401]).
   */
  sessionEndsOn?: readonly number[];
}

/** Supplies the current access token, renewing it first when it is about to end. */
let tokenSource: () => Promise<string | null> = async () => null;
export function setAccessTokenSource(source: () => Promise<string | null>) {
  tokenSource = source;
}

/** Sends a request to the portal's server; `path` starts with '/' and is relative to /api. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiWithHeaders<T>(path, options)).data;
}

/** The token to send; a session the server refuses to renew it for has ended. */
async function bearerToken(): Promise<string | null> {
  try {
    return await tokenSource();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      throw new SessionEndedError(error.status, error.message, error.body);
    }
    throw error;
  }
}

/**
 * Like `api`, and also hands back the answer's headers, for calls that put something there
 * (e.g. `X-Total-Count` on a page of a list).
 */
export async function apiWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.anonymous ? null : await bearerToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the portal. Check your connection and try again.');
  }
  // A body that is not JSON reads as null; a call cancelled while its body arrives stays
  // cancelled (a screen that closed meanwhile), rather than passing for an empty answer.
  const data: unknown =
    response.status === 204
      ? null
      : await response.json().catch((error: Error) => {
          if (error.name === 'AbortError') throw error;
          return null;
        });
  if (!response.ok) {
    const message = String(
      (data as { message?: unknown } | null)?.message ?? `The portal answered ${response.status}.`,
    );
    const endsOn = options.sessionEndsOn ?? (options.anonymous ? [] : [401]);
    const ended = endsOn.includes(response.status);
    throw ended
      ? new SessionEndedError(response.status, message, data)
      : new ApiError(response.status, message, data);
  }
  return { data: data as T, headers: response.headers };
}

/**
 * A file the portal answers (a CSV export), asked for with the bearer token like any call: its
 * body as a Blob, and the file name its Content-Disposition gives. A failure is an ApiError
 * with the server's message; a 401 ends the session.
 */
export async function apiFile(
  path: string,
  options: Pick<RequestOptions, 'signal'> = {},
): Promise<{ blob: Blob; filename: string | null }> {
  const headers: Record<string, string> = {};
  const token = await bearerToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      headers,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the portal. Check your connection and try again.');
  }
  if (!response.ok) {
    const data: unknown = await response.json().catch(() => null);
    const message = String(
      (data as { message?: unknown } | null)?.message ?? `The portal answered ${response.status}.`,
    );
    throw response.status === 401
      ? new SessionEndedError(response.status, message, data)
      : new ApiError(response.status, message, data);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), filename };
}

/**
 * Reads an answer with the contract's schema: its wire formats become the app's own (a booking's
 * 'Jan 5, 2022' becomes the IsoDate '2022-01-05'). An answer that does not fit is an ApiError
 * the screens can show.
 */
export function decodeAnswer<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  try {
    return schema.decode(data as z.input<S>);
  } catch (error) {
    console.error('The portal sent an answer this page cannot read', error);
    throw new ApiError(0, 'The portal sent an answer this page cannot read. Please try again.');
  }
}
