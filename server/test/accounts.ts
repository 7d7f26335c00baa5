import type { FastifyInstance } from 'fastify';

/** Signing in through the API as a browser would: cookies from the auth library, then a token. */
export interface Account {
  email: string;
  password: string;
  cookie: string;
}

function cookieOf(setCookie: string | string[] | undefined): string {
  return [setCookie ?? []]
    .flat()
    .map((cookie) => cookie.split(';', 1)[0])
    .join('; ');
}

let counter = 0;
/** Each call comes from a client address of its own unless one is given, as patients would. */
const nextClientIp = () => {
  counter += 1;
  return `10.1.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
};

export function authRequest(
  app: FastifyInstance,
  path: string,
  body: unknown,
  options: { cookie?: string; ip?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    remoteAddress: options.ip ?? nextClientIp(),
    headers: {
      origin: app.config.publicUrl,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: body as Record<string, unknown>,
  });
}

/** A fresh patient account, signed in. */
export async function signUp(
  app: FastifyInstance,
  overrides: { name?: string; email?: string; password?: string } = {},
): Promise<Account> {
  counter += 1;
  const email = overrides.email ?? `patient${counter}${Date.now()}@mail.com`;
  const password = overrides.password ?? 'plaque-free-smile-42';
  const response = await authRequest(app, '/sign-up/email', {
    name: overrides.name ?? `Patient ${counter}`,
    email,
    password,
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.body}`);
  return { email, password, cookie: cookieOf(response.headers['set-cookie']) };
}

export async function signIn(app: FastifyInstance, email: string, password: string, ip?: string) {
  const response = await authRequest(app, '/sign-in/email', { email, password }, { ip });
  return { response, cookie: cookieOf(response.headers['set-cookie']) };
}

/** The API access token for a signed-in account (PUT /api/user/{email}). */
export async function accessToken(
  app: FastifyInstance,
  account: Pick<Account, 'email' | 'cookie'>,
) {
  const response = await app.inject({
    method: 'PUT',
    url: `/api/user/${account.email}`,
    headers: { cookie: account.cookie, origin: app.config.publicUrl },
    payload: { email: account.email },
  });
  if (response.statusCode !== 200) throw new Error(`token sync failed: ${response.body}`);
  return (response.json() as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
