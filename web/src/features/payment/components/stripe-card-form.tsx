import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { type CardFormProps, PayButton, PreparingNote } from './card-form-parts';

export const STRIPE_LOAD_FAILED =
  'The card form could not be loaded. Check your connection and try again.';

const GENERIC_FAILURE = 'The payment could not be completed. Please try again.';

/** How long to wait for Stripe.js before saying it could not be loaded. */
const LOAD_TIMEOUT_MS = 15_000;

/**
 * Stripe.js, fetched only now: the package's own code is a chunk of its own that only this form
 * imports, and it adds Stripe's script from js.stripe.com (the only place Stripe.js may come from).
 */
async function loadStripeJs(publishableKey: string): Promise<Stripe> {
  const { loadStripe } = await import('@stripe/stripe-js');
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Stripe.js took too long to load')), LOAD_TIMEOUT_MS);
  });
  try {
    const stripe = await Promise.race([loadStripe(publishableKey), timeout]);
    if (!stripe) throw new Error('Stripe.js is not available here');
    return stripe;
  } finally {
    clearTimeout(timer);
  }
}

type Load =
  | { state: 'loading'; retry: boolean }
  | { state: 'failed' }
  | { state: 'loaded'; stripe: Stripe; retry: boolean };

/** The card element's text, in the clinic theme's colours and the system font. */
const CARD_STYLE = {
  base: {
    color: '#16303a',
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    fontSize: '16px',
    iconColor: '#0f766e',
    '::placeholder': { color: '#4a5f69' },
  },
  invalid: { color: '#b91c1c', iconColor: '#b91c1c' },
};

/**
 * The Stripe card form (provider 'stripe'): Stripe's card element, then on Pay the card payment
 * method with the patient's billing name and email, confirmed with the client secret (spec
 * section 7). Stripe.js may fail to load (it comes from js.stripe.com): the form then says so
 * and offers to try again.
 */
export default function StripeCardForm({
  publishableKey,
  clientSecret,
  billing,
  onPaid,
  amountId,
}: CardFormProps & { publishableKey: string }) {
  const [request, setRequest] = useState({ retry: false });
  const [load, setLoad] = useState<Load>({ state: 'loading', retry: false });
  const [card, setCard] = useState<StripeCardElement | null>(null);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mountPoint = useRef<HTMLDivElement>(null);
  const labelId = useId();
  const errorId = useId();

  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading', retry: request.retry });
    loadStripeJs(publishableKey).then(
      (stripe) => {
        if (live) setLoad({ state: 'loaded', stripe, retry: request.retry });
      },
      (failure: unknown) => {
        console.warn('Stripe.js could not be loaded', failure);
        if (live) setLoad({ state: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [publishableKey, request]);

  const stripe = load.state === 'loaded' ? load.stripe : null;
  const focusWhenReady = load.state === 'loaded' && load.retry;

  useEffect(() => {
    const target = mountPoint.current;
    if (!stripe || !target) return;
    const element = stripe.elements().create('card', { style: CARD_STYLE, iconStyle: 'solid' });
    element.on('ready', () => {
      setCard(element);
      // After Retry the patient is sent on to the card they wanted to type.
      if (focusWhenReady) element.focus();
    });
    element.on('change', (event) => setError(event.error?.message ?? null));
    element.on('loaderror', (event) => {
      console.warn('The Stripe card element could not be loaded', event.error);
      setLoad({ state: 'failed' });
    });
    element.mount(target);
    return () => {
      setCard(null);
      element.destroy();
    };
  }, [stripe, focusWhenReady]);

  useEffect(() => {
    card?.update({ disabled: processing });
  }, [card, processing]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!stripe || !card || !clientSecret || processing) return;
    setError(null);
    setProcessing(true);
    try {
      const created = await stripe.createPaymentMethod({
        type: 'card',
        card,
        billing_details: { name: billing.name, email: billing.email },
      });
      if (created.error) {
        setError(created.error.message ?? GENERIC_FAILURE);
        return;
      }
      const result = await stripe.confirmCardPayment(clientSecret, {
        payment_method: created.paymentMethod.id,
      });
      if (result.error) setError(result.error.message ?? GENERIC_FAILURE);
      else if (result.paymentIntent.status === 'succeeded') onPaid(result.paymentIntent.id);
      else setError(`The payment was not completed (${result.paymentIntent.status}).`);
    } catch (failure) {
      console.error('Stripe payment failed', failure);
      setError(GENERIC_FAILURE);
    } finally {
      setProcessing(false);
    }
  };

  const failed = load.state === 'failed';
  const loading = load.state === 'loading' || (stripe !== null && card === null);
  const retrying = load.state === 'loading' && load.retry;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <div className="flex flex-col gap-1.5">
        <span id={labelId} className="text-sm font-medium">
          Card details
        </span>
        {failed || retrying ? (
          <div className="flex flex-col items-start gap-3">
            <ErrorAlert>{STRIPE_LOAD_FAILED}</ErrorAlert>
            <button
              type="button"
              className="btn btn-primary btn-outline btn-sm"
              aria-disabled={retrying ? true : undefined}
              onClick={() => {
                if (!retrying) setRequest({ retry: true });
              }}
            >
              {retrying ? (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              ) : null}
              {retrying ? 'Retrying…' : 'Retry'}
            </button>
          </div>
        ) : null}
        {/* Stripe mounts its card element (a frame from js.stripe.com) in the box. */}
        <div className={`relative ${failed || retrying ? 'hidden' : ''}`}>
          <div
            ref={mountPoint}
            className={`input w-full items-center ${error ? 'input-error' : ''}`}
          />
          {loading ? (
            <div
              role="status"
              className="absolute inset-0 flex items-center gap-3 rounded-field bg-base-100 px-4"
            >
              <span className="shimmer block h-4 w-6" aria-hidden="true" />
              <span className="shimmer block h-3.5 flex-1" aria-hidden="true" />
              <span className="sr-only">Loading the secure card form…</span>
            </div>
          ) : null}
        </div>
      </div>

      {error ? (
        <div id={errorId}>
          <ErrorAlert>{error}</ErrorAlert>
        </div>
      ) : null}
      <PayButton
        ready={card !== null && clientSecret !== null}
        processing={processing}
        amountId={amountId}
      />
      <PreparingNote show={card !== null && clientSecret === null} />
      <p className="text-center text-xs text-muted">
        Card payments are processed by Stripe: your card details go straight to Stripe, never to the
        clinic.
      </p>
    </form>
  );
}
