import { type Booking, formatMediumDate, messages, paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useCancellationPolicy } from '../../../api/cancellation-policy';
import { Email } from '../../../components/email';
import { ErrorAlert } from '../../../components/error-alert';
import { Icon } from '../../../components/icon';
import { QueryError } from '../../../components/query-state';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-provider';
import type { BillingDetails } from '../api/confirm-demo-card';
import { useConfirmPayment } from '../api/confirm-payment';
import { paymentIntentQuery } from '../api/create-payment-intent';
import { bookingQuery } from '../api/get-booking';
import { paymentConfigQuery } from '../api/get-payment-config';
import { type CardFormProps, LockIcon } from './card-form-parts';
import DemoCardForm from './demo-card-form';
import {
  BackToAppointments,
  BookingCancelled,
  BookingNotFound,
  CheckIcon,
  NotYourBooking,
  PaymentSkeleton,
  StatePanel,
} from './payment-states';
import StripeCardForm from './stripe-card-form';

/**
 * How long the confirmation stays on screen once the booking is recorded as paid, before the
 * patient is taken to My Appointments (the spec: 'payment Sent to database', then /dashboard).
 */
export const LEAVE_AFTER_MS = 1500;

/**
 * How long each of the three notices of a payment waits after the one before ('successfully
 * Payment complete!', the confirmation, 'payment Sent to database'). Shown in one moment, they
 * were drawn in the same frame, in either order, and announced together.
 */
export const NOTICE_GAP_MS = 150;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The spec's amount line, literally 'Pay: $' and the price in dollars: 'Pay: $80'. */
export const payLine = (price: number) => `Pay: $${price}`;

interface Payment {
  transactionId: string;
  /** The PATCH that has the server verify the payment and mark the booking paid. */
  record: 'saving' | 'saved' | 'failed';
  error?: string;
}

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError ? error.message : fallback;

function Card({
  children,
  labelledBy,
  className = '',
}: {
  children: ReactNode;
  labelledBy?: string;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={labelledBy}
      className={`rounded-box border border-base-300 bg-base-100 p-5 shadow-soft sm:p-7 ${className}`}
    >
      {children}
    </section>
  );
}

function CalendarIcon() {
  return (
    <Icon className="mt-0.5 size-5 shrink-0 text-primary">
      <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
      <path d="M3.5 10h17M8 3v4M16 3v4" />
    </Icon>
  );
}

/** The booking being paid: treatment, date and slot, who it is for, and the amount due. */
function BookingSummary({
  booking,
  paid,
  amountId,
}: {
  booking: Booking;
  paid: boolean;
  amountId: string;
}) {
  const titleId = useId();
  const policy = useCancellationPolicy(booking.cancellable);
  return (
    <Card labelledBy={titleId} className="bg-mint/60 lg:sticky lg:top-24">
      <p className="text-sm font-semibold uppercase tracking-[0.12em] text-muted">Appointment</p>
      <h2 id={titleId} className="heading-3 mt-1 text-2xl text-neutral">
        {booking.treatment}
      </h2>
      <p className="mt-4 flex items-start gap-2.5 font-medium">
        <CalendarIcon />
        <span>{`Your appointment: ${formatMediumDate(booking.date)} at ${booking.slot}`}</span>
      </p>
      <dl className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-muted">Patient</dt>
        <dd className="truncate font-medium">{booking.patientName}</dd>
        <dt className="text-muted">Email</dt>
        <dd className="font-medium">
          <Email address={booking.patientMail} />
        </dd>
      </dl>
      <div className="mt-5 flex flex-wrap items-end justify-between gap-3 border-t border-base-300 pt-5">
        {paid ? (
          <>
            <p className="font-display text-3xl font-bold text-neutral">{`Paid: $${booking.price}`}</p>
            <span className="badge badge-success font-semibold">PAID</span>
          </>
        ) : (
          <p id={amountId} className="font-display text-3xl font-bold text-neutral">
            {payLine(booking.price)}
          </p>
        )}
      </div>
      {policy && <p className="mt-4 text-sm text-muted">{policy}</p>}
    </Card>
  );
}

/** The card payment's id, for the patient's records. */
function TransactionId({ id }: { id: string }) {
  return (
    <p className="mt-3 flex flex-col items-center gap-1 text-sm text-muted">
      <span>Transaction id:</span>
      <span className="break-all rounded-field bg-base-200 px-3 py-1.5 font-mono text-sm text-base-content">
        {id}
      </span>
    </p>
  );
}

/** What the patient sees once the card payment succeeded, while and after it is recorded. */
function Confirmation({ payment, onRetry }: { payment: Payment; onRetry: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <Card labelledBy="payment-confirmed" className="flex flex-col items-center text-center">
      <CheckIcon />
      <h2
        id="payment-confirmed"
        ref={heading}
        tabIndex={-1}
        className="heading-3 mt-5 text-2xl text-neutral outline-none"
      >
        {messages.paymentConfirmed}
      </h2>
      <TransactionId id={payment.transactionId} />
      <p role="status" className="mt-5 flex min-h-6 items-center gap-2 text-sm text-muted">
        {payment.record === 'saving' ? (
          <>
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            Saving the payment to your appointment…
          </>
        ) : payment.record === 'saved' ? (
          'Saved. Taking you to My Appointments…'
        ) : null}
      </p>
      {payment.record === 'failed' ? (
        <div className="mt-2 flex w-full flex-col items-center gap-3 text-left">
          <ErrorAlert>
            {`Your payment went through, but your appointment could not be updated yet: ${payment.error}`}
          </ErrorAlert>
          <button type="button" className="btn btn-primary btn-sm" onClick={onRetry}>
            Try again
          </button>
        </div>
      ) : null}
      <Link to={paths.dashboard} className="btn btn-primary btn-outline mt-5">
        Go to My Appointments
      </Link>
    </Card>
  );
}

function AlreadyPaid({ booking }: { booking: Booking }) {
  return (
    <Card labelledBy="already-paid" className="flex flex-col items-center text-center">
      <CheckIcon />
      <h2 id="already-paid" className="heading-3 mt-5 text-2xl text-neutral">
        This appointment is already paid
      </h2>
      <TransactionId id={booking.transactionId ?? '–'} />
      <p className="mt-2 text-sm text-muted">
        There is nothing more to pay. See you at the clinic!
      </p>
      <div className="mt-6">
        <BackToAppointments primary />
      </div>
    </Card>
  );
}

function NothingDue() {
  return (
    <Card labelledBy="nothing-due" className="flex flex-col items-center text-center">
      <h2 id="nothing-due" className="heading-3 text-2xl text-neutral">
        Nothing to pay
      </h2>
      <p className="mt-2 text-sm text-muted">This appointment has no charge to pay online.</p>
      <div className="mt-6">
        <BackToAppointments />
      </div>
    </Card>
  );
}

/**
 * /dashboard/payment/{id} (spec section 2, Payment page): the greeting, 'Please Pay for
 * {treatment}', the booking's date and slot, 'Pay: ${price}' and the card form of the configured
 * gateway. On success: the 'successfully Payment complete!' notice, 'Your Payment has been
 * confirmed!' with the transaction id, the PATCH that records it, 'payment Sent to database', and
 * back to /dashboard.
 */
export function PaymentPage({ bookingId }: { bookingId: string }) {
  const { user } = useAuth();
  const confirmPayment = useConfirmPayment();
  const navigate = useNavigate();
  const amountId = useId();
  const formTitleId = useId();
  const [payment, setPayment] = useState<Payment | null>(null);
  // The card went through and its confirmation is on its way: the spent form takes no more.
  const [charged, setCharged] = useState(false);
  const leaving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const booking = useQuery(bookingQuery(bookingId));
  const config = useQuery(paymentConfigQuery);
  const due =
    booking.data &&
    !booking.data.paid &&
    booking.data.status !== 'cancelled' &&
    booking.data.price > 0 &&
    payment === null
      ? booking.data
      : null;
  // The client secret is asked for as soon as the page knows the booking is due.
  const intent = useQuery({
    ...paymentIntentQuery(due ?? { _id: bookingId, price: 0 }),
    enabled: due !== null,
  });

  // Paid meanwhile (another tab, or Stripe's webhook): show the booking as it now is.
  const paidMeanwhile = intent.error instanceof ApiError && intent.error.status === 409;
  const { refetch: refetchBooking } = booking;
  useEffect(() => {
    if (paidMeanwhile) void refetchBooking();
  }, [paidMeanwhile, refetchBooking]);

  useEffect(() => () => clearTimeout(leaving.current), []);

  const record = async (transactionId: string) => {
    setPayment({ transactionId, record: 'saving' });
    try {
      await Promise.all([
        confirmPayment.mutateAsync({ bookingId, transactionId }),
        pause(NOTICE_GAP_MS),
      ]);
      toast.success(messages.paymentSaved);
      setPayment({ transactionId, record: 'saved' });
      leaving.current = setTimeout(() => navigate(paths.dashboard), LEAVE_AFTER_MS);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      setPayment({
        transactionId,
        record: 'failed',
        error: messageOf(error, 'the portal could not be reached.'),
      });
    }
  };

  const onPaid = (transactionId: string) => {
    setCharged(true);
    // The payment's two notices take the place of those before them (the booking's own): a
    // third stacked below them reaches My Appointments' table on a laptop's screen.
    toast.dismiss();
    toast.success(messages.paymentComplete);
    // Recorded even if the patient has left the page meanwhile: the card has been charged.
    void pause(NOTICE_GAP_MS).then(() => record(transactionId));
  };

  if (booking.isPending || (config.isPending && !booking.isError)) return <PaymentSkeleton />;

  if (booking.isError) {
    // An ended session is on its way to the login page.
    if (booking.error instanceof SessionEndedError) return <PaymentSkeleton />;
    const status = booking.error instanceof ApiError ? booking.error.status : 0;
    if (status === 404) return <BookingNotFound />;
    if (status === 403) return <NotYourBooking />;
    return (
      <StatePanel
        icon={null}
        title="Your appointment could not be loaded"
        actions={
          <>
            <button
              type="button"
              className="btn btn-primary w-full sm:w-auto"
              onClick={() => void booking.refetch()}
              disabled={booking.isFetching}
            >
              Try again
            </button>
            <BackToAppointments />
          </>
        }
      >
        <p>{booking.error.message}</p>
      </StatePanel>
    );
  }

  const current = booking.data;
  if (current.status === 'cancelled' && !payment) return <BookingCancelled booking={current} />;
  const billing: BillingDetails = {
    name: user?.name ?? current.patientName,
    email: user?.email ?? current.patientMail,
  };

  let panel: ReactNode;
  if (payment) {
    // The card went through: its spent form goes, and the outcome takes its place.
    panel = <Confirmation payment={payment} onRetry={() => void record(payment.transactionId)} />;
  } else if (current.paid) {
    panel = <AlreadyPaid booking={current} />;
  } else if (current.price <= 0) {
    panel = <NothingDue />;
  } else {
    // Either provider's form takes the same props; Stripe's needs its key besides.
    const card: CardFormProps = {
      clientSecret: intent.data?.clientSecret ?? null,
      billing,
      onPaid,
      amountId,
    };
    const form =
      config.data?.provider === 'stripe' ? (
        <StripeCardForm publishableKey={config.data.publishableKey} {...card} />
      ) : config.data?.provider === 'demo' ? (
        <DemoCardForm {...card} />
      ) : null;
    panel = (
      <Card labelledBy={formTitleId}>
        <div className="mb-5 flex items-center justify-between gap-3">
          <h2 id={formTitleId} className="heading-3 text-neutral">
            Pay by card
          </h2>
          <span className="flex items-center gap-1.5 text-xs font-medium text-muted">
            <LockIcon className="size-3.5" />
            Secure payment
          </span>
        </div>
        <div className="flex flex-col gap-5">
          {config.isError ? (
            <QueryError
              message={`The payment options could not be loaded. ${config.error.message}`}
              onRetry={() => void config.refetch()}
              retrying={config.isFetching}
            />
          ) : null}
          {intent.isError && !paidMeanwhile && !(intent.error instanceof SessionEndedError) ? (
            <QueryError
              message={`Your payment could not be prepared. ${intent.error.message}`}
              onRetry={() => void intent.refetch()}
              retrying={intent.isFetching}
            />
          ) : null}
          <fieldset disabled={charged} className="contents">
            {form}
          </fieldset>
        </div>
      </Card>
    );
  }

  const paid = current.paid || payment !== null;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <p className="eyebrow">Payment</p>
        <h1 className="heading-2 mt-2 text-neutral">{`Hello, ${current.patientName}`}</h1>
        <p className="lead mt-2">
          {paid ? (
            `Thank you for paying for ${current.treatment}`
          ) : (
            <>
              Please Pay for <span className="font-semibold text-neutral">{current.treatment}</span>
            </>
          )}
        </p>
      </header>
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <BookingSummary booking={current} paid={paid} amountId={amountId} />
        {panel}
      </div>
    </div>
  );
}
