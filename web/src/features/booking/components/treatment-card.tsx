import { type AvailableTreatment, formatDollars, messages } from '@doctors-portal/contract';
import { useEffect, useRef } from 'react';
import { Icon } from '../../../components/icon';

/** The card's box, which its skeleton shares so that nothing moves when the cards arrive. */
const FRAME = 'flex flex-col rounded-box border bg-base-100 p-6 shadow-soft';

/** '1 Space', '3 Spaces', '0 Spaces'. */
export const spaces = (count: number) => `${count} ${count === 1 ? 'Space' : 'Spaces'}`;

/** The id of a card's 'Book Appointment' button, so focus can be given back to it. */
export const bookButtonId = (treatmentId: string) => `book-${treatmentId}`;

/** The id of a card, so the page can bring the treatment a link asked for into view. */
export const treatmentCardId = (treatmentId: string) => `treatment-${treatmentId}`;

/** A slot's start, as its chip shows it: '10:00 AM' of '10:00 AM - 10:30 AM'. */
export const slotStart = (slot: string) => slot.split(' - ', 1)[0] ?? slot;

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
  /** Opens the booking form, with `slot` chosen when a time chip was tapped. */
  onBook: (treatment: AvailableTreatment, button: HTMLButtonElement, slot?: string) => void;
  /** The treatment a link asked for ('get the service' on the home page): marked out. */
  highlighted?: boolean;
  /** The pointer or focus is on the button: a good moment to fetch the booking form's code. */
  onIntent?: () => void;
  /** Offered on a card with no free slot: wait for one (components/waitlist-join.ts). */
  onJoinWaitlist?: (treatment: AvailableTreatment) => void;
  /** The patient waits for this treatment on the day already: said instead of the offer. */
  waiting?: boolean;
}

/**
 * One treatment of the day: its first free slot, how many are left, every free time as a chip
 * that opens the form with that time chosen, the price, and 'Book'. Each button's accessible
 * name starts with what it shows and names the treatment, so that a list of buttons reads well.
 */
export function TreatmentCard({
  treatment,
  onBook,
  highlighted = false,
  onIntent,
  onJoinWaitlist,
  waiting = false,
}: TreatmentCardProps) {
  const free = treatment.slots.length;
  const first = treatment.slots[0];
  const nameId = `treatment-${treatment._id}-name`;
  // Joined from this card: the button is replaced by the note, which then takes its focus.
  const joining = useRef(false);
  const waitingNote = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!waiting || !joining.current) return;
    joining.current = false;
    // Only where the focus fell with the button: a join that failed, then made elsewhere, moves
    // no one's focus.
    if (document.activeElement === document.body) waitingNote.current?.focus();
  }, [waiting]);
  return (
    <li
      id={treatmentCardId(treatment._id)}
      aria-labelledby={nameId}
      className={`${FRAME} scroll-mt-28 text-center transition-shadow hover:shadow-lift ${highlighted ? 'border-primary ring-2 ring-primary' : 'border-base-300'}`}
    >
      {highlighted ? (
        <p className="mb-3 self-center rounded-full bg-primary/10 px-3 py-1 text-sm font-semibold text-primary">
          The service you chose
        </p>
      ) : null}
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
      {free > 0 ? (
        <ul
          aria-label={`Free times for ${treatment.name}`}
          className="mt-4 flex flex-wrap justify-center gap-2"
        >
          {treatment.slots.map((slot) => (
            <li key={slot}>
              <button
                type="button"
                className="btn btn-outline btn-sm min-w-20 border-base-300 font-medium tabular-nums hover:border-primary"
                aria-label={`${slot}, book ${treatment.name}`}
                onClick={(event) => onBook(treatment, event.currentTarget, slot)}
                onPointerEnter={onIntent}
                onFocus={onIntent}
              >
                {slotStart(slot)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
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
          aria-label={`Book Appointment, ${treatment.name}`}
          onClick={(event) => onBook(treatment, event.currentTarget)}
          onPointerEnter={onIntent}
          onFocus={onIntent}
        >
          Book Appointment
        </button>
        {free === 0 && onJoinWaitlist && waiting ? (
          <p
            ref={waitingNote}
            tabIndex={-1}
            className="text-sm font-semibold text-primary outline-none"
          >
            You are on the waitlist: we will email you when a slot frees up.
          </p>
        ) : free === 0 && onJoinWaitlist ? (
          <button
            type="button"
            className="btn btn-outline btn-primary w-full sm:w-auto sm:px-8"
            aria-label={`Join the waitlist, ${treatment.name}`}
            onClick={() => {
              joining.current = true;
              onJoinWaitlist(treatment);
            }}
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
    <li aria-hidden="true" className={`${FRAME} items-center border-base-300 text-neutral`}>
      <span className="shimmer h-6 w-40" />
      <span className="shimmer mt-4 h-4 w-36" />
      <span className="shimmer mt-2.5 h-3.5 w-28" />
      <span className="shimmer mt-4 h-5 w-20" />
      <span className="shimmer mt-6 h-12 w-full rounded-field sm:w-48" />
    </li>
  );
}
