import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A local stand-in for the parts of Stripe's REST API the portal uses, speaking as Stripe does:
 * form-encoded requests with bracketed keys (`metadata[bookingId]=…`), a secret key as a Bearer
 * token, `Idempotency-Key` honoured, JSON answers and Stripe's error bodies. stripe-node talks to
 * it through its `host`, `port` and `protocol` options (STRIPE_API_BASE).
 *
 *   POST /v1/payment_intents                 create (the same idempotency key: the same intent)
 *   GET  /v1/payment_intents/{id}            retrieve
 *   POST /v1/payment_intents/{id}/cancel     cancel (refused once it succeeded or is processing)
 *   POST /v1/refunds                         refund a succeeded intent in full, once
 *   GET  /v1/refunds?payment_intent={id}     list an intent's refunds
 *   POST /test/payment_intents/{id}/succeed  test hook: the card payment succeeded
 *   POST /test/payment_intents/{id}/cancel   test hook: the intent was cancelled
 *
 * Run on its own with `npx tsx server/test/stripe-stand-in.ts [port] [secret key]`.
 */

export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'processing' | 'succeeded' | 'canceled';
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  allowed_payment_method_types: string[];
  payment_method_types: string[];
  created: number;
  livemode: false;
}

/** A page of a list, as Stripe answers one. */
export interface StandInList {
  object: 'list';
  data: StandInRefund[];
  has_more: boolean;
  url: string;
}

export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded' | 'failed';
  failure_reason?: string;
  created: number;
}

/** A request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: http.IncomingHttpHeaders;
  /** The raw form body. */
  body: string;
  /** The form body decoded into nested objects, as Stripe reads it. */
  params: Record<string, unknown>;
}

export interface StripeStandIn {
  /** 'http://127.0.0.1:<port>', for STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  intents: Map<string, StandInIntent>;
  /** Refunds by payment intent id. */
  refunds: Map<string, StandInRefund>;
  requests: RecordedRequest[];
  /** While set, every API call answers 500 api_error (Stripe having a bad day). */
  failing: boolean;
  /** Intents whose charge the cardholder disputed: Stripe refuses to refund them. */
  disputed: Set<string>;
  /** Forgets every idempotency key, as Stripe does 24 hours after a key's first use. */
  forgetIdempotencyKeys(): void;
  succeed(intentId: string): StandInIntent;
  cancel(intentId: string): StandInIntent;
  /** The intent's refund fails, as a card refund can days after Stripe accepted it. */
  failRefund(intentId: string, reason?: string): StandInRefund;
  /** A webhook event as Stripe would send it about an intent or a refund, as JSON text. */
  event(type: string, object: StandInIntent | StandInRefund, id?: string): string;
  close(): Promise<void>;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  return `${prefix}${Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('')}`;
}

/** 'metadata[bookingId]=b1&allowed_payment_method_types[0]=card' → nested objects and arrays. */
export function decodeForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let target = result as Record<string, unknown>;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        target[part] = value;
        return;
      }
      const next = /^\d+$/.test(path[index + 1] ?? '') ? [] : {};
      target[part] ??= next;
      target = target[part] as Record<string, unknown>;
    });
  }
  return result;
}

class StripeFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new StripeFailure(400, { type: 'invalid_request_error', message, ...extra });

export async function startStripeStandIn(
  options: { secretKey?: string; port?: number } = {},
): Promise<StripeStandIn> {
  const secretKey = options.secretKey ?? 'sk_test_standin';
  const intents = new Map<string, StandInIntent>();
  const refunds = new Map<string, StandInRefund>();
  const requests: RecordedRequest[] = [];
  /** Idempotency key → the body first sent with it and the object it made. */
  const idempotent = new Map<string, { body: string; answer: StandInIntent | StandInRefund }>();

  const find = (id: string) => {
    const intent = intents.get(id);
    if (!intent) {
      throw new StripeFailure(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'intent',
        message: `No such payment_intent: '${id}'`,
      });
    }
    return intent;
  };

  const create = (params: Record<string, unknown>): StandInIntent => {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      throw invalid('This value must be greater than or equal to 1.', { param: 'amount' });
    }
    if (typeof params.currency !== 'string' || !/^[a-z]{3}$/.test(params.currency)) {
      throw invalid('Missing required param: currency.', { param: 'currency' });
    }
    const id = stripeId('pi_3');
    const types = Array.isArray(params.allowed_payment_method_types)
      ? (params.allowed_payment_method_types as string[])
      : ['card'];
    const intent: StandInIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: params.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${stripeId('', 25)}`,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      receipt_email: typeof params.receipt_email === 'string' ? params.receipt_email : null,
      allowed_payment_method_types: types,
      payment_method_types: types,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
    };
    intents.set(id, intent);
    return intent;
  };

  const refund = (params: Record<string, unknown>): StandInRefund => {
    const intent = find(String(params.payment_intent ?? ''));
    if (intent.status !== 'succeeded') {
      throw invalid(
        `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        { code: 'charge_not_refundable' },
      );
    }
    if (standIn.disputed.has(intent.id)) {
      throw invalid(`Charge for ${intent.id} has been charged back; cannot issue a refund.`, {
        code: 'charge_disputed',
      });
    }
    if (refunds.has(intent.id)) {
      throw invalid(`Charge for ${intent.id} has already been refunded.`, {
        code: 'charge_already_refunded',
      });
    }
    const made: StandInRefund = {
      id: stripeId('re_3'),
      object: 'refund',
      amount: intent.amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(intent.id, made);
    return made;
  };

  /** A POST made once per idempotency key: the same key and body answer the first answer. */
  const once = <T extends StandInIntent | StandInRefund>(
    request: RecordedRequest,
    make: () => T,
  ): T => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return make();
    const earlier = idempotent.get(key);
    if (earlier && earlier.body !== request.body) {
      throw new StripeFailure(400, {
        type: 'idempotency_error',
        message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      });
    }
    if (earlier) return earlier.answer as T;
    const answer = make();
    idempotent.set(key, { body: request.body, answer });
    return answer;
  };

  const handle = (request: RecordedRequest): StandInIntent | StandInRefund | StandInList => {
    const hook = /^\/test\/payment_intents\/([^/]+)\/(succeed|cancel)$/.exec(request.path);
    if (request.method === 'POST' && hook) {
      return hook[2] === 'succeed' ? succeed(hook[1] ?? '') : cancel(hook[1] ?? '');
    }
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      throw new StripeFailure(401, {
        type: 'invalid_request_error',
        message: 'Invalid API Key provided.',
      });
    }
    if (standIn.failing) {
      throw new StripeFailure(500, {
        type: 'api_error',
        message: 'An unknown error occurred (the stand-in was told to fail).',
      });
    }
    if (request.method === 'POST' && request.path === '/v1/payment_intents') {
      return once(request, () => create(request.params));
    }
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      return once(request, () => refund(request.params));
    }
    if (request.method === 'GET' && request.path === '/v1/refunds') {
      const made = refunds.get(String(request.params.payment_intent ?? ''));
      return { object: 'list', data: made ? [made] : [], has_more: false, url: '/v1/refunds' };
    }
    const retrieve = /^\/v1\/payment_intents\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && retrieve) return find(decodeURIComponent(retrieve[1] ?? ''));
    const cancelling = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(request.path);
    if (request.method === 'POST' && cancelling) {
      const intent = find(decodeURIComponent(cancelling[1] ?? ''));
      if (intent.status === 'succeeded' || intent.status === 'processing') {
        throw invalid(
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action.`,
          { code: 'payment_intent_unexpected_state' },
        );
      }
      return cancel(intent.id);
    }
    throw new StripeFailure(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${request.method}: ${request.path}).`,
    });
  };

  const succeed = (id: string) => {
    const intent = find(id);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    return intent;
  };
  const cancel = (id: string) => {
    const intent = find(id);
    intent.status = 'canceled';
    return intent;
  };

  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(incoming.url ?? '/', 'http://stand-in');
      const request: RecordedRequest = {
        method: incoming.method ?? 'GET',
        path: url.pathname,
        headers: incoming.headers,
        body,
        params: decodeForm(incoming.method === 'GET' ? url.search.slice(1) : body),
      };
      requests.push(request);
      let status = 200;
      let answer: unknown;
      try {
        answer = handle(request);
      } catch (error) {
        if (!(error instanceof StripeFailure)) throw error;
        status = error.status;
        answer = { error: error.body };
      }
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': stripeId('req_', 14),
        // Like Stripe: a failure the client should not retry says so.
        ...(status >= 500 ? { 'stripe-should-retry': 'false' } : {}),
      });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standIn: StripeStandIn = {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    intents,
    refunds,
    requests,
    failing: false,
    disputed: new Set(),
    forgetIdempotencyKeys: () => idempotent.clear(),
    succeed,
    cancel,
    failRefund(intentId, reason = 'expired_or_canceled_card') {
      const made = refunds.get(intentId);
      if (!made) throw new Error(`the stand-in has no refund of ${intentId}`);
      made.status = 'failed';
      made.failure_reason = reason;
      return made;
    },
    event(type, object, id = stripeId('evt_')) {
      return JSON.stringify({
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return standIn;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [port, secretKey] = process.argv.slice(2);
  const standIn = await startStripeStandIn({
    port: port ? Number(port) : 12111,
    ...(secretKey ? { secretKey } : {}),
  });
  console.warn(`Stripe stand-in at ${standIn.url} (secret key ${standIn.secretKey})`);
}
