import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/env.js';

const stripe = {
  STRIPE_SECRET_KEY: 'sk_test_51abcSecret',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51abcPublishable',
  STRIPE_WEBHOOK_SECRET: 'whsec_abcSigning',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
}

describe('payment configuration', () => {
  it('uses the offline demo gateway when no Stripe key is set', () => {
    expect(loadConfig({}).payments).toEqual({ provider: 'demo' });
  });

  it('uses Stripe when its secret key, publishable key and webhook secret are all set', () => {
    expect(loadConfig(stripe).payments).toEqual({
      provider: 'stripe',
      secretKey: 'sk_test_51abcSecret',
      publishableKey: 'pk_test_51abcPublishable',
      webhookSecret: 'whsec_abcSigning',
    });
  });

  it('points stripe-node at STRIPE_API_BASE when it is set', () => {
    const config = loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(config.payments).toMatchObject({
      apiBase: { host: '127.0.0.1', port: 12111, protocol: 'http' },
    });
    const https = loadConfig({ ...stripe, STRIPE_API_BASE: 'https://stripe.internal/' });
    expect(https.payments).toMatchObject({
      apiBase: { host: 'stripe.internal', port: 443, protocol: 'https' },
    });
  });

  it('refuses some of the three Stripe secrets without the others, naming the missing ones', () => {
    const message = refusal({ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY });
    expect(message).toBe(
      'STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set too: Stripe payments need the secret key, the publishable key and the webhook signing secret (leave all three unset for the offline demo gateway)',
    );
    expect(refusal({ ...stripe, STRIPE_WEBHOOK_SECRET: '' })).toMatch(
      /^STRIPE_WEBHOOK_SECRET must be set too/,
    );
  });

  it('refuses keys of two modes, and STRIPE_API_BASE without Stripe', () => {
    expect(refusal({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_live_51abc' })).toBe(
      'STRIPE_PUBLISHABLE_KEY is a live key but STRIPE_SECRET_KEY is a test key: use the two keys of one mode',
    );
    expect(refusal({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toMatch(
      /^STRIPE_API_BASE is set but Stripe is not/,
    );
  });

  it.each([
    [
      { STRIPE_PUBLISHABLE_KEY: 'sk_test_swapped' },
      'STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_…)',
    ],
    [
      { STRIPE_WEBHOOK_SECRET: 'abc' },
      'STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret (whsec_…)',
    ],
    [
      { STRIPE_API_BASE: 'http://127.0.0.1:12111/v1' },
      'STRIPE_API_BASE must be an http(s):// origin without a path',
    ],
  ])('refuses %o with a one-line message', (env, message) => {
    const text = refusal({ ...stripe, ...env });
    expect(text).toContain(message);
    expect(text).not.toContain('\n');
  });

  it('never repeats a secret key in its message', () => {
    const text = refusal({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_wrongKindOfKey' });
    expect(text).toBe(
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_…) from the Stripe dashboard',
    );
    expect(refusal({ ...stripe, STRIPE_WEBHOOK_SECRET: 'not-whsec-secret' })).not.toContain(
      'not-whsec-secret',
    );
  });
});
