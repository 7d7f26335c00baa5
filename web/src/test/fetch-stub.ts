import { vi } from 'vitest';

/** What the stubbed server answers: a status (200 unless given) and a JSON body. */
export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A request the app sent, as the stubbed server saw it. */
export interface Call {
  method: string;
  /** The path without the query, e.g. '/api/booking'. */
  path: string;
  url: URL;
  /** The JSON body, parsed (a FormData as it was sent). */
  body: unknown;
  headers: Headers;
}

type Handler = (call: Call, params: Record<string, string>) => Reply | Promise<Reply>;

/** An answer that never comes: the app stays waiting. */
export const never = (): Promise<Reply> => new Promise(() => {});

/** The JSON answer of a server error with its message, as the portal's API shapes them. */
export const failure = (status: number, message: string, extra: object = {}): Reply => ({
  status,
  body: { statusCode: status, error: 'Error', message, ...extra },
});

function matcher(route: string) {
  const [method, pattern] = route.split(' ') as [string, string];
  const names: string[] = [];
  const regex = new RegExp(
    `^${pattern.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    })}$`,
  );
  return (call: Call) => {
    if (call.method !== method) return null;
    const match = regex.exec(call.path);
    if (!match) return null;
    return Object.fromEntries(
      names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]),
    );
  };
}

/**
 * Replaces `fetch` with a small stand-in for the portal's API: each route, 'METHOD /api/path'
 * (with ':name' parts), answers a Reply or a function of the call. Anything else answers 404.
 * Routes added later (`on`) take precedence, so a test can change an answer midway. The calls
 * are recorded for the test to read.
 */
export function stubApi(routes: Record<string, Reply | Handler> = {}) {
  const table: Array<{ match: ReturnType<typeof matcher>; handler: Reply | Handler }> = [];
  const calls: Call[] = [];
  const on = (route: string, handler: Reply | Handler) => {
    table.unshift({ match: matcher(route), handler });
  };
  for (const [route, handler] of Object.entries(routes)) on(route, handler);

  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://portal.test');
    const raw = init.body;
    const call: Call = {
      method: init.method ?? 'GET',
      path: url.pathname,
      url,
      body: typeof raw === 'string' ? JSON.parse(raw) : raw,
      headers: new Headers(init.headers),
    };
    calls.push(call);
    let reply: Reply = failure(404, `No stub for ${call.method} ${call.path}`);
    for (const { match, handler } of table) {
      const params = match(call);
      if (!params) continue;
      reply = typeof handler === 'function' ? await handler(call, params) : handler;
      break;
    }
    const status = reply.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? null), {
      status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', fetchStub);

  return {
    calls,
    on,
    /** The calls made to one route, e.g. 'GET /api/available'. */
    callsTo: (route: string) => {
      const match = matcher(route);
      return calls.filter((call) => match(call) !== null);
    },
  };
}

export type ApiStub = ReturnType<typeof stubApi>;
