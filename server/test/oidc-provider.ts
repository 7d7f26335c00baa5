import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/** The person who signs in at the stand-in provider next. */
export interface OidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestOidcProvider {
  /** The issuer URL, for GOOGLE_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next sign-in authenticates as. */
  setAccount(account: OidcAccount): void;
  close(): Promise<void>;
}

/**
 * A certified OpenID Connect provider (the `oidc-provider` package) on a loopback port, standing
 * in for Google: discovery, authorization code with PKCE, token and userinfo endpoints all
 * run over HTTP as Google's do. Its login step signs in the configured account at once, and
 * consent is pre-granted, so a browser or a test follows redirects straight through.
 */
export async function startTestOidcProvider(options: {
  redirectUri: string;
  port?: number;
}): Promise<TestOidcProvider> {
  let account: OidcAccount = {
    sub: 'google-user-1',
    email: 'gina@mail.com',
    email_verified: true,
    name: 'Gina Green',
  };
  const clientId = 'doctors-portal-test';
  const clientSecret = 'test-client-secret-which-is-long-enough';

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' }] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({ ...account, sub: id }),
    }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Consent is pre-granted: every scope the client asks for.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client?.clientId,
        accountId: ctx.oidc.session?.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['test-cookie-key'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    pkce: { required: () => true },
  });
  const handle = provider.callback();

  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(
          req,
          res,
          { login: { accountId: account.sub } },
          { mergeWithLastSubmission: false },
        )
        .catch((error: Error) => {
          res.statusCode = 500;
          res.end(error.message);
        });
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount: (next) => {
      account = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The `cookie` request header that sends back the cookies of a `set-cookie` response header. */
export function cookiesOf(setCookie: string | string[] | undefined): string {
  return [setCookie ?? []]
    .flat()
    .map((cookie) => cookie.split(';', 1)[0])
    .join('; ');
}

/**
 * Follows the provider's redirects from `authorizationUrl` as a browser would (keeping its
 * cookies), until they lead back to the portal at `portalUrl`: the portal's callback URL.
 */
export async function throughProvider(authorizationUrl: string, portalUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(portalUrl)) return new URL(url);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`provider answered ${response.status}: ${await response.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}
