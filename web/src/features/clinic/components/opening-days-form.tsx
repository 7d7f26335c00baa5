import { formatMediumDate, WEEKDAY_NAMES } from '@doctors-portal/contract';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { SubmitButton } from '../../../components/submit-button';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useSetOpeningDays } from '../api/set-opening-days';
import { WEEK_ORDER } from '../clinic';

/** The weekly opening days: one checkbox a day, Monday first; at least one stays open. */
export function OpeningDaysForm({ openingDays }: { openingDays: number[] }) {
  const [days, setDays] = useState(() => new Set(openingDays));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSetOpeningDays();
  const headingId = useId();
  const errorId = useId();

  const toggle = (day: number, on: boolean) => {
    const next = new Set(days);
    if (on) next.add(day);
    else next.delete(day);
    setDays(next);
    setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (days.size === 0) {
      setProblem('Keep at least one day of the week open.');
      return;
    }
    try {
      const { bookings } = await save.mutateAsync([...days].sort());
      const [first] = bookings;
      if (!first) toast.success('Opening days saved.');
      else {
        // They stay booked: the clinic moves or cancels them from the schedule.
        const count = bookings.length;
        toast.warn(
          `Opening days saved. ${count} ${count === 1 ? 'booking is' : 'bookings are'} still on the days now closed, the first on ${formatMediumDate(first.date)}: see the schedule.`,
        );
      }
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'The opening days could not be saved. Please try again.'));
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-box border border-base-300 bg-base-100 p-5 shadow-soft"
    >
      <form onSubmit={submit} noValidate>
        <fieldset aria-describedby={problem ? errorId : undefined}>
          <legend id={headingId} className="heading-3 text-neutral">
            Opening days
          </legend>
          <p className="mt-1 text-sm text-muted">
            Patients can book only on the days the clinic opens.
          </p>
          <div className="mt-4 flex flex-wrap gap-x-5 gap-y-3">
            {WEEK_ORDER.map((day) => (
              <label key={day} className="flex min-h-6 cursor-pointer items-center gap-2">
                <input
                  type="checkbox"
                  className="checkbox checkbox-primary"
                  checked={days.has(day)}
                  onChange={(event) => toggle(day, event.target.checked)}
                />
                {WEEKDAY_NAMES[day]}
              </label>
            ))}
          </div>
          {problem ? (
            <p id={errorId} role="alert" className="mt-2 text-sm text-error">
              {problem}
            </p>
          ) : null}
        </fieldset>
        <SubmitButton className="mt-5" pending={save.isPending} pendingLabel="Saving…">
          Save opening days
        </SubmitButton>
      </form>
    </section>
  );
}
