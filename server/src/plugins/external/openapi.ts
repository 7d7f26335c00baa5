import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * Every tag an operation uses, by name, with what it groups (the OpenAPI lint test checks that
 * none is left out).
 */
const TAGS: Record<string, string> = {
  system: 'Whether the portal and its database answer',
  clinic:
    "The clinic's facts and services, its calendar of closed days, and (administrators) " +
    'its opening days, closures and booking rules',
  accounts: 'Access tokens and roles of the signed-in user',
  bookings: 'Free slots, booking, cancelling',
  payments: 'Paying a booking by card',
  schedule:
    "The clinic's schedule (administrators): the bookings of a range of dates, as JSON " +
    "or CSV, a visit's status, and the clinic's cancellation with a refund",
  contact: 'The Contact Us form: a message to the clinic',
  admin:
    "The clinic's administrators: users, doctors, photos, treatments and prices, " +
    'Contact Us messages and the audit log',
};

/**
 * OpenAPI 3 generated from the routes' zod schemas, browsable at /api/docs (the document itself
 * at /api/docs/json). Every operation names itself (`operationId`) and says how it is
 * authorised: a bearer access token, Stripe's signature, or nothing (`security: []`).
 * Registered before the routes, which it collects as they are added.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Doctors Portal API',
          description:
            "The dental clinic portal's API: clinic facts, bookings, payments, admin. Dates " +
            "travel in the spec's medium format ('Jan 5, 2022'), money in dollars.",
          version: '1.0.0',
          // The clinic's own API, as the portal that serves it (the package is private).
          license: { name: 'Proprietary', url: app.config.publicUrl },
        },
        // Wherever this document is served from: every instance describes itself.
        servers: [{ url: '/', description: 'The portal serving this document' }],
        tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
        components: {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description:
                'A 15-minute access token from `PUT /api/user/{email}`, for the signed-in user.',
            },
            // Only Stripe calls its webhook, which exists only when Stripe is configured.
            ...(app.config.payments.provider === 'stripe'
              ? {
                  stripeSignature: {
                    type: 'apiKey' as const,
                    in: 'header',
                    name: 'Stripe-Signature',
                    description:
                      "Stripe's signature of the webhook body, with the endpoint's secret.",
                  },
                }
              : {}),
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // Swagger UI's own policy, with the portal's rules on framing and <base>: the docs page is
      // framed by nobody and, like every page of the portal, sets no base URL.
      transformStaticCSP: (header) =>
        header
          .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
          .replace("base-uri 'self'", "base-uri 'none'"),
    });
  },
  { name: 'openapi', dependencies: ['config'] },
);
