import {
  type AvailableDay,
  type AvailableTreatment,
  formatMediumDate,
  type IsoDate,
} from '@doctors-portal/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Ref } from 'react';
import { unbookableReason } from '../../../api/day-status';
import { QueryState } from '../../../components/query-state';
import { TreatmentCard, TreatmentCardSkeleton } from './treatment-card';

/** The spec's 1, 2 and 3 columns on small, medium and large screens. */
const GRID = 'grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3';
const SKELETONS = ['a', 'b', 'c', 'd', 'e', 'f'];

export interface AvailableAppointmentsProps {
  /** The chosen day. */
  date: IsoDate;
  /** The chosen day's status on the calendar, when the calendar's month holds it. */
  status?: AvailableDay | undefined;
  /** For a day that takes no bookings: the next one that does, and how to go there. */
  nextOpenDay?: { date: IsoDate; onPick: () => void } | undefined;
  availability: UseQueryResult<AvailableTreatment[]>;
  onBook: (treatment: AvailableTreatment, button: HTMLButtonElement, slot?: string) => void;
  /** The name of the treatment a link asked for, marked out among the cards. */
  highlighted?: string | null;
  onIntent?: () => void;
  onJoinWaitlist?: (treatment: AvailableTreatment) => void;
  /** The treatments (ids) the patient waits for on this day already. */
  waitingFor?: ReadonlySet<string>;
  /** The heading takes focus when the button that opened the modal is gone. */
  headingRef?: Ref<HTMLHeadingElement>;
}

/** 'Available Appointments on {date}' and the day's treatment cards, or why there are none. */
export function AvailableAppointments({
  date,
  status,
  nextOpenDay,
  availability,
  onBook,
  highlighted,
  onIntent,
  onJoinWaitlist,
  waitingFor,
  headingRef,
}: AvailableAppointmentsProps) {
  const day = formatMediumDate(date);
  const treatments = availability.data;
  const fullyBooked =
    treatments !== undefined &&
    treatments.length > 0 &&
    treatments.every((treatment) => treatment.slots.length === 0);
  // No waitlist for a day nobody can book: it is not full, and no slot will free up.
  const notBookable = unbookableReason(status);
  const waitlist = notBookable ? undefined : onJoinWaitlist;

  return (
    <section
      aria-labelledby="available-title"
      className="bg-base-100 pb-16 pt-12 sm:pb-20 sm:pt-16"
    >
      <div className="container-page">
        <div className="mx-auto max-w-2xl text-center">
          <p className="eyebrow">Free slots</p>
          <h2
            id="available-title"
            ref={headingRef}
            tabIndex={-1}
            className="heading-2 mt-3 text-neutral outline-none"
          >
            {`Available Appointments on ${day}`}
          </h2>
          {notBookable ? (
            <p className="lead mt-4">{notBookable}</p>
          ) : fullyBooked ? (
            <p className="lead mt-4">
              Every slot is taken on this day. Please pick another date on the calendar.
            </p>
          ) : (
            <p className="lead mt-4">
              Each card shows every free time: tap one to book it, or pick it in the booking form.
            </p>
          )}
          {nextOpenDay && (notBookable || fullyBooked) ? (
            <button
              type="button"
              className="btn btn-primary btn-outline mt-5"
              onClick={nextOpenDay.onPick}
            >
              {`See ${formatMediumDate(nextOpenDay.date)}, the next day with free slots`}
            </button>
          ) : null}
        </div>

        <div className="mt-10" aria-busy={availability.isFetching}>
          <QueryState
            query={availability}
            loading={
              <>
                <span role="status" className="sr-only">
                  Loading available appointments…
                </span>
                <ul className={GRID} aria-hidden="true">
                  {SKELETONS.map((key) => (
                    <TreatmentCardSkeleton key={key} />
                  ))}
                </ul>
              </>
            }
            isEmpty={(list) => list.length === 0}
            empty={
              <div className="mx-auto max-w-xl rounded-box border border-dashed border-base-300 bg-base-200/60 px-6 py-10 text-center">
                <p className="heading-3 text-neutral">No treatments on this day</p>
                <p className="mt-2 text-muted">
                  The clinic offers no appointments on {day}. Please pick another date.
                </p>
              </div>
            }
            what={`The appointments for ${day}`}
            errorClassName="mx-auto flex max-w-xl flex-col items-center gap-4"
            errorSize="md"
          >
            {(list) => (
              <ul className={GRID}>
                {list.map((treatment) => (
                  <TreatmentCard
                    key={treatment._id}
                    treatment={treatment}
                    onBook={onBook}
                    highlighted={treatment.name === highlighted}
                    onIntent={onIntent}
                    onJoinWaitlist={waitlist}
                    waiting={waitingFor?.has(treatment._id)}
                  />
                ))}
              </ul>
            )}
          </QueryState>
        </div>
      </div>
    </section>
  );
}
