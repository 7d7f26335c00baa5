import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { Config } from '../../config/env.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Puts the security headers on a raw response: for the requests the router refuses (a
     * malformed address) before any hook runs.
     */
    applySecurityHeaders(request: IncomingMessage, response: ServerResponse): void;
  }
}

type HeaderOptions = { https: boolean; stripe?: boolean; imageOrigin?: string };

/**
 * What Stripe.js needs, and no more: its script and the card element's frames from js.stripe.com,
 * 3-D Secure frames from hooks.stripe.com, and its calls to api.stripe.com.
 */
const STRIPE_JS = {
  script: ['https://js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/** The portal's helmet configuration: a strict content security policy and friends. */
function helmetOptions(options: HeaderOptions) {
  const stripe = options.stripe ?? false;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? STRIPE_JS.script : [])],
        styleSrc: ["'self'"],
        // Doctors' photos may be served from the S3 bucket's public address.
        imgSrc: ["'self'", 'data:', 'blob:', ...(options.imageOrigin ? [options.imageOrigin] : [])],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(stripe ? STRIPE_JS.connect : [])],
        ...(stripe ? { frameSrc: STRIPE_JS.frame } : {}),
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: options.https
      ? { maxAge: 31536000, includeSubDomains: true }
      : (false as const),
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
    frameguard: { action: 'deny' as const },
    crossOriginEmbedderPolicy: false,
  };
}

/** What the headers depend on in the configuration. */
function headerOptions(config: Config): HeaderOptions {
  return {
    https: config.publicUrl.startsWith('https://'),
    stripe: config.payments.provider === 'stripe',
    imageOrigin:
      config.images.storage === 's3' && config.images.publicUrl
        ? new URL(config.images.publicUrl).origin
        : undefined,
  };
}

/**
 * helmet's security headers on every answer: a strict content security policy and friends. With
 * Stripe configured, the policy also lets the payment page load Stripe.js.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const middleware = helmet(helmetOptions(headerOptions(app.config)));
    // The headers depend on nothing in the request, so they are worked out once and put on
    // every answer as they are. (@fastify/helmet ran helmet, parsing the whole policy, on every
    // request: about a tenth of a cached GET /api/available, see docs/performance.md.)
    const headers = headersOf(middleware);
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    app.decorate('applySecurityHeaders', (request: IncomingMessage, response: ServerResponse) => {
      middleware(request, response, () => {});
    });
  },
  { name: 'security-headers', dependencies: ['config'] },
);

/** The headers a helmet middleware sets, read once from a stand-in response. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}
