import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type Stripe from 'stripe';
import { demoGateway } from '../../payments/demo-gateway.js';
import type { Payments } from '../../payments/service.js';
import { stripeClient, stripeGateway } from '../../payments/stripe.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The card gateway and what it works with (see payments/service.ts). */
    payments: Payments;
    /** stripe-node for the configured account; null with the demo gateway. */
    stripe: Stripe | null;
  }
}

/** The card gateway: Stripe when its keys are configured, the offline demo gateway otherwise. */
export const paymentsPlugin = fp(
  async (app: FastifyInstance) => {
    const settings = app.config.payments;
    const stripe = settings.provider === 'stripe' ? stripeClient(settings) : null;
    app.decorate('stripe', stripe);
    app.decorate('payments', {
      db: app.db,
      provider: stripe ? stripeGateway(stripe) : demoGateway(app.db),
      mail: app.mailQueue,
    });
  },
  { name: 'payments', dependencies: ['config', 'database', 'mail'] },
);
