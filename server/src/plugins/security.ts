import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * What Stripe.js needs, and no more: its script and the card element's frames from js.stripe.com,
 * 3-D Secure frames from hooks.stripe.com, and its calls to api.stripe.com.
 */
const STRIPE_JS = {
  script: ['https://js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/**
 * Security headers for every answer: a strict content security policy and friends. With
 * `stripe`, the policy also lets the payment page load Stripe.js.
 */
export async function securityHeaders(
  app: FastifyInstance,
  options: { https: boolean; stripe?: boolean },
) {
  const stripe = options.stripe ?? false;
  await app.register(helmet, {
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
    strictTransportSecurity: options.https ? { maxAge: 31536000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
}
