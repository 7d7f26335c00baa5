import { type Booking, formatDollars, paths } from '@doctors-portal/contract';
import type { ReactNode, Ref } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../components/icon';

function StateIcon({
  tone,
  children,
}: {
  tone: 'success' | 'error' | 'info';
  children: ReactNode;
}) {
  const colours = {
    success: 'bg-success/10 text-success',
    error: 'bg-error/10 text-error',
    info: 'bg-mint text-primary',
  } as const;
  return (
    <span
      className={`flex size-14 shrink-0 items-center justify-center rounded-full ${colours[tone]}`}
    >
      <Icon className="size-7">{children}</Icon>
    </span>
  );
}

export const CheckIcon = () => (
  <StateIcon tone="success">
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </StateIcon>
);

const MissingIcon = () => (
  <StateIcon tone="info">
    <rect x="3.5" y="5" width="17" height="15.5" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4M10 14l4 4M14 14l-4 4" />
  </StateIcon>
);

const LockedIcon = () => (
  <StateIcon tone="error">
    <rect x="4.5" y="10.5" width="15" height="10" rx="2" />
    <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />
  </StateIcon>
);

export function BackToAppointments({ primary = false }: { primary?: boolean }) {
  return (
    <Link
      to={paths.dashboard}
      className={`btn ${primary ? 'btn-primary' : 'btn-primary btn-outline'} w-full sm:w-auto`}
    >
      Back to My Appointments
    </Link>
  );
}

/** A page-wide message in place of the payment form: not found, not yours, failed to load. */
export function StatePanel({
  icon,
  title,
  children,
  actions,
  headingRef,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-center rounded-box border border-base-300 bg-base-100 px-6 py-10 text-center shadow-soft sm:px-10">
      {icon}
      <h1
        ref={headingRef}
        tabIndex={-1}
        className="heading-3 mt-5 text-2xl text-neutral outline-none"
      >
        {title}
      </h1>
      <div className="mt-2 text-muted">{children}</div>
      <div className="mt-7 flex w-full flex-col justify-center gap-3 sm:flex-row">{actions}</div>
    </section>
  );
}

export function BookingNotFound() {
  return (
    <StatePanel
      icon={<MissingIcon />}
      title="We could not find this appointment"
      actions={<BackToAppointments primary />}
    >
      <p>
        The link may be mistyped, or the appointment may have been cancelled. Your appointments are
        listed on your dashboard.
      </p>
    </StatePanel>
  );
}

/**
 * A cancelled booking: nothing to pay for it, or, for one that was paid, the refund of its
 * payment (the clinic's or the patient's cancellation refunds it).
 */
export function BookingCancelled({ booking }: { booking: Booking }) {
  return (
    <StatePanel
      icon={<MissingIcon />}
      title="This appointment was cancelled"
      actions={<BackToAppointments primary />}
    >
      {booking.paid ? (
        <p>
          {booking.refund ? (
            <>
              Your payment of {formatDollars(booking.price)} was refunded to your card (refund id{' '}
              <span className="break-all font-mono">{booking.refund.id}</span>).
            </>
          ) : (
            <>
              Its payment of {formatDollars(booking.price)} was not refunded online: please contact
              the clinic.
            </>
          )}{' '}
          Your other appointments are listed on your dashboard.
        </p>
      ) : (
        <p>There is nothing to pay for it. Your other appointments are listed on your dashboard.</p>
      )}
      {booking.cancelReason ? (
        <p className="mt-2">The clinic's reason: {booking.cancelReason}</p>
      ) : null}
    </StatePanel>
  );
}

export function NotYourBooking() {
  return (
    <StatePanel
      icon={<LockedIcon />}
      title="This appointment is not yours to pay"
      actions={<BackToAppointments primary />}
    >
      <p>You can only see and pay for your own appointments. Yours are listed on your dashboard.</p>
    </StatePanel>
  );
}

/** The page's shape while the booking and the payment configuration load. */
export function PaymentSkeleton() {
  return (
    <div className="flex flex-col gap-6 text-neutral">
      <p role="status" className="sr-only">
        Loading your payment…
      </p>
      <div aria-hidden="true" className="flex flex-col gap-3">
        <span className="shimmer block h-4 w-24" />
        <span className="shimmer block h-9 w-64 max-w-full" />
        <span className="shimmer block h-5 w-80 max-w-full" />
      </div>
      <div aria-hidden="true" className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <div className="flex flex-col gap-4 rounded-box border border-base-300 bg-mint/60 p-6 shadow-soft">
          <span className="shimmer block h-6 w-40" />
          <span className="shimmer block h-4 w-56 max-w-full" />
          <span className="shimmer block h-4 w-44" />
          <span className="mt-4 shimmer block h-8 w-32" />
        </div>
        <div className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-6 shadow-soft">
          <span className="shimmer block h-16 w-full rounded-field" />
          <span className="shimmer block h-4 w-24" />
          <span className="shimmer block h-12 w-full rounded-field" />
          <div className="grid grid-cols-3 gap-4">
            <span className="shimmer block h-12 rounded-field" />
            <span className="shimmer block h-12 rounded-field" />
            <span className="shimmer block h-12 rounded-field" />
          </div>
          <span className="shimmer mt-2 block h-14 w-full rounded-field" />
        </div>
      </div>
    </div>
  );
}
