import { type AvailableTreatment, formatDollars, messages } from '@doctors-portal/contract';
import { Icon } from '../../../components/icon';

/** '1 Space', '3 Spaces', '0 Spaces'. */
export const spaces = (count: number) => `${count} ${count === 1 ? 'Space' : 'Spaces'}`;

/** The id of a card's 'Book Appointment' button, so focus can be given back to it. */
export const bookButtonId = (treatmentId: string) => `book-${treatmentId}`;

function ClockIcon() {
  return (
    <Icon className="size-4 shrink-0" strokeLinecap="butt" strokeLinejoin="miter">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 7v5l3 2" />
    </Icon>
  );
}

export interface TreatmentCardProps {
  treatment: AvailableTreatment;
  onBook: (treatment: AvailableTreatment, button: HTMLButtonElement) => void;
  /** The pointer or focus is on the button: a good moment to fetch the booking form's code. */
  onIntent?: () => void;
  /** Offered on a card with no free slot: wait for one (components/waitlist-join.ts). */
  onJoinWaitlist?: (treatment: AvailableTreatment) => void;
}

/** One treatment of the day: its first free slot, how many are left, the price, and 'Book'. */
export function TreatmentCard({ treatment, onBook, onIntent, onJoinWaitlist }: TreatmentCardProps) {
  const free = treatment.slots.length;
  const first = treatment.slots[0];
  const nameId = `treatment-${treatment._id}-name`;
  return (
    <li className="flex flex-col rounded-box border border-base-300 bg-base-100 p-6 text-center shadow-soft transition-shadow hover:shadow-lift">
      <h3 id={nameId} className="heading-3 text-primary">
        {treatment.name}
      </h3>
      <p className="mt-3 flex min-h-6 items-center justify-center gap-1.5 font-medium">
        {first ? (
          <>
            <ClockIcon />
            <span>{first}</span>
          </>
        ) : (
          <span className="text-error">{messages.noSlots}</span>
        )}
      </p>
      <p className="mt-1 text-sm text-muted">{`${spaces(free)} available`}</p>
      <p className="mt-3 text-sm text-muted">
        Price{' '}
        <span className="ml-1 text-lg font-bold text-neutral">
          {formatDollars(treatment.price)}
        </span>
      </p>
      <div className="mt-5 flex flex-1 flex-col items-center justify-end gap-2">
        <button
          id={bookButtonId(treatment._id)}
          type="button"
          className="btn btn-primary w-full sm:w-auto sm:px-8"
          disabled={free === 0}
          aria-describedby={nameId}
          onClick={(event) => onBook(treatment, event.currentTarget)}
          onPointerEnter={onIntent}
          onFocus={onIntent}
        >
          Book Appointment
        </button>
        {free === 0 && onJoinWaitlist ? (
          <button
            type="button"
            className="btn btn-outline btn-primary w-full sm:w-auto sm:px-8"
            aria-describedby={nameId}
            onClick={() => onJoinWaitlist(treatment)}
          >
            Join the waitlist
          </button>
        ) : null}
      </div>
    </li>
  );
}

/** A card's shape while the day's treatments load. */
export function TreatmentCardSkeleton() {
  return (
    <li
      aria-hidden="true"
      className="flex flex-col items-center rounded-box border border-base-300 bg-base-100 p-6 text-neutral shadow-soft"
    >
      <span className="shimmer h-6 w-40" />
      <span className="shimmer mt-4 h-4 w-36" />
      <span className="shimmer mt-2.5 h-3.5 w-28" />
      <span className="shimmer mt-4 h-5 w-20" />
      <span className="shimmer mt-6 h-12 w-full rounded-field sm:w-48" />
    </li>
  );
}
