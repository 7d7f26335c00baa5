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

type Body = Record<string, unknown> | unknown[] | FormData;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: Body;
  signal?: AbortSignal;
  /** Leave out the bearer token (public calls, and the calls that obtain one). */
  anonymous?: boolean;
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

/**
 * Like `api`, and also hands back the answer's headers, for calls that put something there
 * (e.g. `X-Total-Count` on a page of a list).
 */
export async function apiWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.anonymous ? null : await tokenSource();
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
  const data: unknown = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      (data as { message?: unknown } | null)?.message ?? `The portal answered ${response.status}.`;
    throw new ApiError(response.status, String(message), data);
  }
  return { data: data as T, headers: response.headers };
}
