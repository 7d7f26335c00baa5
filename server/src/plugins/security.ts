import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

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
function helmetOptions(options: { https: boolean; stripe?: boolean }) {
  const stripe = options.stripe ?? false;
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? STRIPE_JS.script : [])],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
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

/**
 * Security headers for every answer. With `stripe`, the policy also lets the payment page load
 * Stripe.js. Answers the function that puts the same headers on a raw response: the router
 * refuses some requests (a malformed address) before any hook runs.
 */
export async function securityHeaders(
  app: FastifyInstance,
  options: { https: boolean; stripe?: boolean },
): Promise<(request: IncomingMessage, response: ServerResponse) => void> {
  const configuration = helmetOptions(options);
  await app.register(fastifyHelmet, configuration);
  const middleware = helmet(configuration);
  return (request, response) => {
    middleware(request, response, () => {});
  };
}
