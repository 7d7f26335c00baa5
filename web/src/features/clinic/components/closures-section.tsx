import {
  type ClosureWithBookings,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
} from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ChangeEvent,
  type FormEvent,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { toast } from 'react-toastify/unstyled';
import { useCancelByClinic } from '../../../api/cancel-by-clinic';
import { useConfirm } from '../../../components/confirm-dialog';
import { Field } from '../../../components/form-field';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { SubmitButton } from '../../../components/submit-button';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useAddClosure } from '../api/add-closure';
import { closuresQuery } from '../api/get-closures';
import { clinicKeys } from '../api/keys';
import { useRemoveClosure } from '../api/remove-closure';
import { type ClosureProblems, checkClosure, describeRange } from '../clinic';

const dayOf = (date: string) => {
  const iso = parseIsoDate(date);
  return iso ? formatMediumDate(iso) : date;
};

/** The form that adds a closure: a first and a last date, and a label. */
function ClosureForm({ today }: { today: IsoDate }) {
  const [values, setValues] = useState({ from: '', to: '', label: '' });
  const [problems, setProblems] = useState<ClosureProblems>({});
  const add = useAddClosure();

  const set = (field: keyof typeof values, value: string) => {
    const next = { ...values, [field]: value };
    // A single day by default: the last date follows the first until it is set.
    if (field === 'from' && (values.to === '' || values.to === values.from)) next.to = value;
    setValues(next);
    setProblems({ ...problems, [field]: undefined });
  };
  /** A field's value, its problem, and what typing in it does. */
  const bound = (field: keyof typeof values) => ({
    value: values[field],
    error: problems[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.target.value),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkClosure(values, today);
    if (!checked.ok) {
      setProblems(checked.problems);
      const first = (['from', 'to', 'label'] as const).find((field) => checked.problems[field]);
      if (first) document.getElementsByName(`closure-${first}`)[0]?.focus();
      return;
    }
    try {
      const closure = await add.mutateAsync(checked.closure);
      setValues({ from: '', to: '', label: '' });
      const count = closure.bookings.length;
      const message = `Closed ${describeRange(closure.from, closure.to)} (${closure.label}).`;
      if (count === 0) toast.success(message);
      else {
        toast.warn(
          `${message} ${count} ${count === 1 ? 'booking is' : 'bookings are'} still on those days: see the list below.`,
        );
      }
    } catch (error) {
      if (!(error instanceof SessionEndedError)) {
        toast.error(`The closure could not be added. ${reasonOf(error, 'Please try again.')}`);
      }
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-[auto_auto_1fr]">
      <Field
        name="closure-from"
        label="First closed day"
        type="date"
        min={today}
        required
        {...bound('from')}
      />
      <Field
        name="closure-to"
        label="Last closed day"
        type="date"
        min={values.from || today}
        required
        {...bound('to')}
      />
      <Field
        name="closure-label"
        label="Label"
        hint="What patients and staff read, e.g. the holiday’s name."
        maxLength={80}
        required
        {...bound('label')}
      />
      <div className="sm:col-span-3">
        <SubmitButton pending={add.isPending} pendingLabel="Adding…">
          Add closure
        </SubmitButton>
      </div>
    </form>
  );
}

/**
 * One closure: its dates and label, the bookings still on its days, and its actions. Once removed,
 * the focus goes to the list's heading (`listHeading`); after Cancel and notify, which leaves with
 * the bookings, to the closure's Remove.
 */
function ClosureItem({
  closure,
  listHeading,
}: {
  closure: ClosureWithBookings;
  listHeading: RefObject<HTMLHeadingElement | null>;
}) {
  const confirm = useConfirm();
  const remove = useRemoveClosure();
  const cancel = useCancelByClinic();
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const range = describeRange(closure.from, closure.to);
  const count = closure.bookings.length;
  const bookingsId = useId();
  const removeButton = useRef<HTMLButtonElement>(null);
  // Remove is disabled while a change is under way (and a disabled button drops the focus to the
  // page's start): it takes the focus once enabled again.
  const [focusRemove, setFocusRemove] = useState(false);
  const busy = remove.isPending || cancelling;
  useEffect(() => {
    if (!focusRemove || busy) return;
    removeButton.current?.focus();
    setFocusRemove(false);
  }, [focusRemove, busy]);

  const onRemove = async () => {
    const sure = await confirm({
      message: `Remove the closure ${range} (${closure.label})? Patients can book those days again.`,
      confirmLabel: 'Remove closure',
      danger: true,
    });
    if (!sure) return;
    try {
      await remove.mutateAsync(closure.id);
      toast.success(`The clinic opens again on ${range}.`);
      listHeading.current?.focus();
    } catch (error) {
      if (!(error instanceof SessionEndedError)) {
        toast.error(`The closure could not be removed. ${reasonOf(error, 'Please try again.')}`);
        setFocusRemove(true);
      }
    }
  };

  const onCancelAll = async () => {
    const sure = await confirm({
      message: `Cancel ${count} ${count === 1 ? 'booking' : 'bookings'} on ${range} and notify the ${count === 1 ? 'patient' : 'patients'}? Paid bookings are refunded; the reason given is “${closure.label}”.`,
      confirmLabel: 'Cancel and notify',
      cancelLabel: 'Keep the bookings',
      danger: true,
    });
    if (!sure) return;
    setCancelling(true);
    let done = 0;
    const failed: string[] = [];
    for (const booking of closure.bookings) {
      try {
        await cancel.mutateAsync({ id: booking._id, reason: closure.label });
        done += 1;
      } catch (error) {
        if (error instanceof SessionEndedError) break;
        failed.push(
          `${booking.patientName} (${dayOf(booking.date)}, ${booking.slot}): ${reasonOf(error, 'Please try again.')}`,
        );
      }
    }
    setCancelling(false);
    setFocusRemove(true);
    // The closure's list of bookings is the clinic's screen's own: read again, the card drops
    // the cancelled ones and, with none left, its Cancel and notify.
    void queryClient.invalidateQueries({ queryKey: clinicKeys.closures });
    if (done > 0) {
      toast.success(
        `Cancelled ${done} ${done === 1 ? 'booking' : 'bookings'}; the ${done === 1 ? 'patient has' : 'patients have'} been notified.`,
      );
    }
    if (failed.length > 0) toast.error(`Not cancelled: ${failed.join('; ')}`);
  };

  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4 shadow-soft">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold text-neutral">{closure.label}</p>
          <p className="text-sm text-muted">{range}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {count > 0 ? (
            <button
              type="button"
              className="btn btn-error btn-sm"
              aria-describedby={bookingsId}
              disabled={cancelling}
              onClick={() => void onCancelAll()}
            >
              {cancelling ? 'Cancelling…' : 'Cancel and notify'}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-outline btn-sm"
            ref={removeButton}
            aria-label={`Remove the closure ${closure.label}, ${range}`}
            disabled={busy}
            onClick={() => void onRemove()}
          >
            Remove
          </button>
        </div>
      </div>
      {count > 0 ? (
        <div className="mt-3 rounded-field bg-warning/10 p-3">
          <p id={bookingsId} className="text-sm font-medium">
            {count} {count === 1 ? 'booking is' : 'bookings are'} still on these days:
          </p>
          <ul className="mt-2 flex flex-col gap-1 text-sm">
            {closure.bookings.map((booking) => (
              <li key={booking._id} className="[overflow-wrap:anywhere]">
                {dayOf(booking.date)}, {booking.slot}: {booking.treatment}, {booking.patientName}
                {booking.paid ? ' (paid)' : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </li>
  );
}

/** The closures: the form that adds one, and the list of those not over yet. */
export function ClosuresSection({ today }: { today: IsoDate }) {
  const closures = useQuery(closuresQuery);
  const headingId = useId();
  const listHeadingId = useId();
  const listHeading = useRef<HTMLHeadingElement>(null);
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-box border border-base-300 bg-base-100 p-5 shadow-soft"
    >
      <div>
        <h2 id={headingId} className="heading-3 text-neutral">
          Closures and holidays
        </h2>
        <p className="mt-1 text-sm text-muted">
          Days the clinic is closed offer no slots. Bookings already made on them stay until you
          cancel them.
        </p>
      </div>
      <ClosureForm today={today} />
      <h3
        id={listHeadingId}
        ref={listHeading}
        tabIndex={-1}
        className="font-semibold text-neutral outline-none"
      >
        Upcoming closures
      </h3>
      <QueryState
        query={closures}
        loading={<TableLoading label="Loading the closures…" />}
        what="The closures"
        isEmpty={(list) => list.length === 0}
        empty={<EmptyState title="No closures">The clinic has no closed dates ahead.</EmptyState>}
      >
        {(list) => (
          <ul aria-labelledby={listHeadingId} className="flex flex-col gap-3">
            {list.map((closure) => (
              <ClosureItem key={closure.id} closure={closure} listHeading={listHeading} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
