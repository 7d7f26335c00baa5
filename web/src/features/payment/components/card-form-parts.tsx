import { Icon } from '../../../components/icon';
import type { BillingDetails } from '../api/confirm-demo-card';

/** What the page gives either card form (the demo gateway's or Stripe's). */
export interface CardFormProps {
  /** The payment intent's client secret; null until the server has answered it. */
  clientSecret: string | null;
  /** The patient's billing name and email, sent with the card (spec section 7). */
  billing: BillingDetails;
  /** The card payment succeeded; `transactionId` is the payment intent's id. */
  onPaid: (transactionId: string) => void;
  /** The id of the element that says how much is due, to describe the Pay button. */
  amountId: string;
}

/**
 * The Pay button: disabled until the card form is ready and the client secret has arrived, and
 * while a payment is processing (spec section 4, Payment form). Once it succeeded the page
 * replaces the form with the outcome.
 */
export function PayButton({
  ready,
  processing,
  amountId,
}: {
  ready: boolean;
  processing: boolean;
  amountId: string;
}) {
  return (
    <>
      <button
        type="submit"
        className="btn btn-primary btn-lg w-full"
        disabled={!ready || processing}
        aria-describedby={amountId}
      >
        {processing ? (
          <>
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            Processing…
          </>
        ) : (
          <>
            <LockIcon />
            Pay
          </>
        )}
      </button>
      <p role="status" className="sr-only">
        {processing ? 'Processing your payment…' : ''}
      </p>
    </>
  );
}

export function LockIcon({ className = 'size-4' }: { className?: string }) {
  return (
    <Icon className={`${className} shrink-0`}>
      <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
      <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />
    </Icon>
  );
}

/** Shown under the fields while the form waits for the client secret. */
export function PreparingNote({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <p className="flex items-center justify-center gap-2 text-sm text-muted">
      <span className="loading loading-spinner loading-xs" aria-hidden="true" />
      Preparing a secure payment…
    </p>
  );
}
