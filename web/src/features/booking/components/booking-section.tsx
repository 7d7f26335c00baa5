import {
  type AvailableTreatment,
  type Booking,
  formatMediumDate,
  type IsoDate,
  OPENING_HOURS,
  parseIsoDate,
  paths,
  waitlistMessages,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import {
  type ComponentType,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { availabilityQuery, monthAvailabilityQuery } from '../../../api/availability';
import { policyOf } from '../../../api/cancellation-policy';
import { clinicQuery } from '../../../api/clinic';
import { clinicCalendarQuery } from '../../../api/clinic-calendar';
import { Glow } from '../../../components/glow';
import { QueryState } from '../../../components/query-state';
import { useAuth } from '../../../lib/auth/auth-provider';
import type { LoginState } from '../../../lib/auth/guards';
import { useNearViewport } from '../../../lib/use-near-viewport';
import { useToday } from '../../../lib/use-today';
import { myWaitlistQuery } from '../api/waitlist';
import { closedWeekdays } from '../closed-weekdays';
import { revealOnNarrowScreen } from '../reveal-on-narrow-screen';
import { AvailableAppointments } from './available-appointments';
import { BookingConfirmation } from './booking-confirmation';
import type { BookingModalProps } from './booking-modal';
import { bookButtonId, treatmentCardId } from './treatment-card';
import { useWaitlistJoin, WAIT_PARAM } from './waitlist-join';

/** The form (react-hook-form and zod) is fetched only when a patient opens it. */
const loadBookingModal = () => import('./booking-modal');

function ModalUnavailable({ onClose }: BookingModalProps) {
  useEffect(() => {
    toast.error('The booking form could not be loaded. Check your connection and try again.');
    onClose();
  }, [onClose]);
  return null;
}

const BookingModal = lazy<ComponentType<BookingModalProps>>(() =>
  loadBookingModal().catch(() => ({ default: ModalUnavailable })),
);

/**
 * The calendar (react-day-picker with date-fns, about 20 KB gzip) is its own chunk: on the home
 * page it sits below the fold, so the landing route's first JavaScript stays small. Its download
 * starts as soon as the section renders; a skeleton of the same size holds its place.
 */
const BookingCalendar = lazy(() =>
  import('./booking-calendar').then((module) => ({ default: module.BookingCalendar })),
);

let browserZoneRead: string | undefined;
/**
 * The browser's own time zone: the page notes the clinic's when it differs. Read once, when the
 * section is first drawn, not when the app starts: the pages without it need not build a
 * formatter.
 */
const browserZone = () => {
  browserZoneRead ??= Intl.DateTimeFormat().resolvedOptions().timeZone;
  return browserZoneRead;
};

/** Search parameters: the chosen day (ISO), and a treatment to open after signing in. */
const DATE_PARAM = 'date';
const BOOK_PARAM = 'book';
/** With `book`: the slot a time chip or a waitlist mail offers, picked in the form if still free. */
const SLOT_PARAM = 'slot';
/** A treatment's name to mark out among the cards ('get the service' on the home page). */
const TREATMENT_PARAM = 'treatment';

function CalendarSkeleton() {
  return (
    <div aria-hidden="true" className="text-neutral">
      <span className="shimmer block h-6 w-36" />
      <div className="mt-6 grid grid-cols-7 gap-2">
        {Array.from({ length: 35 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder cells.
          <span key={index} className="shimmer block size-9 rounded-xl sm:size-10" />
        ))}
      </div>
    </div>
  );
}

function CalendarLoading() {
  return (
    <>
      <span role="status" className="sr-only">
        Loading the calendar…
      </span>
      <CalendarSkeleton />
    </>
  );
}

export interface BookingSectionProps {
  /** 1 on the booking page, where the calendar's heading is the page's title; 2 on the home page. */
  level?: 1 | 2;
  /** The anchor of the calendar hero; the login round trip comes back to it. */
  id?: string;
}

/**
 * The booking page's content (spec section 2), on /appointment and on the home page: a hero with
 * the calendar, then the day's treatments. The chosen day lives in the address (?date=), so it
 * survives a reload and the trip to the login page and back.
 */
export function BookingSection({ level = 2, id = 'booking' }: BookingSectionProps) {
  const auth = useAuth();
  const clinic = useQuery(clinicQuery);
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const titleId = useId();
  const availableHeading = useRef<HTMLHeadingElement>(null);
  // On the home page the section sits below the fold: the calendar's code and the day's
  // treatments load when it comes near the viewport, not in the page's first seconds.
  const [near, sectionRef] = useNearViewport<HTMLElement>(level === 1);
  const [selection, setSelection] = useState<{
    treatment: AvailableTreatment;
    trigger: HTMLElement | null;
    slot?: string;
  } | null>(null);
  // The booking just made: its confirmation panel shows until the patient moves on.
  const [booked, setBooked] = useState<Booking | null>(null);
  const justBooked = useRef(false);

  // Today and the browser's zone are the browser's to know, not the prerendered page's; and
  // asked for only near the section: the first date formatter loads the browser's time zone
  // data, a long task of its own (docs/performance.md).
  const today = useToday(near ? clinic.data?.timeZone : undefined);
  const timeZone = today ? clinic.data?.timeZone : undefined;
  const requested = parseIsoDate(params.get(DATE_PARAM) ?? '');
  const day = today && requested && requested >= today ? requested : today;

  const availability = useQuery({ ...availabilityQuery(day), enabled: near });
  // Each day's status in the month on show: the calendar disables closed and past days.
  const [shownMonth, setShownMonth] = useState<IsoDate | null>(null);
  const monthDays = useQuery({
    ...monthAvailabilityQuery((shownMonth ?? day)?.slice(0, 7) ?? null),
    enabled: near,
  });
  // The cancellation policy's notice comes with today's clinic calendar.
  const policyDay = today ?? ('2000-01-01' as IsoDate);
  const calendar = useQuery({
    ...clinicCalendarQuery(policyDay, policyDay),
    enabled: near && today !== null,
  });
  const signedIn = auth.status === 'signed-in';
  const closedDays = calendar.data ? closedWeekdays(calendar.data.openingDays) : null;

  const updateParams = useCallback(
    (change: (next: URLSearchParams) => void) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace: true, preventScrollReset: true },
      ),
    [setParams],
  );

  const pickDay = (picked: IsoDate) =>
    updateParams((next) => {
      next.set(DATE_PARAM, picked);
      next.delete(BOOK_PARAM);
    });

  // The first later day of the chosen day's month that takes bookings, for a day that takes none.
  const nextOpenDay =
    day && monthDays.data?.month === day.slice(0, 7)
      ? (monthDays.data.days.find((shown) => shown.date > day && shown.status === 'open')?.date as
          | IsoDate
          | undefined)
      : undefined;

  const open = useCallback(
    (treatment: AvailableTreatment, trigger: HTMLElement | null, slot?: string) => {
      setSelection({ treatment, trigger, slot });
    },
    [],
  );

  /** Visitors sign in first and come back to this day, where `param` resumes what they chose. */
  const signInFirst = (param: string, treatment: AvailableTreatment, slot?: string) => {
    const back = new URLSearchParams(params);
    if (day) back.set(DATE_PARAM, day);
    back.set(param, treatment._id);
    if (slot) back.set(SLOT_PARAM, slot);
    const from = { ...location, search: `?${back}`, hash: `#${id}` };
    navigate(paths.login, { state: { from } satisfies LoginState });
  };

  const onBook = (treatment: AvailableTreatment, button: HTMLButtonElement, slot?: string) => {
    if (signedIn) open(treatment, button, slot);
    else signInFirst(BOOK_PARAM, treatment, slot);
  };

  // A link that names a treatment ('get the service'): bring its card into view once listed.
  const highlighted = params.get(TREATMENT_PARAM);
  const highlightedId = availability.data?.find((treatment) => treatment.name === highlighted)?._id;
  useEffect(() => {
    if (highlightedId) document.getElementById(treatmentCardId(highlightedId))?.scrollIntoView();
  }, [highlightedId]);

  const joinWaitlist = useWaitlistJoin(day);
  // What the patient waits for already, so that a card says so rather than offer it again.
  const myWaitlist = useQuery({ ...myWaitlistQuery, enabled: near && signedIn });
  const waitingFor = useMemo(
    () =>
      new Set(
        (myWaitlist.data ?? [])
          .filter((entry) => entry.date === day)
          .map((entry) => entry.treatmentId),
      ),
    [myWaitlist.data, day],
  );
  const onJoinWaitlist = (treatment: AvailableTreatment) => {
    if (signedIn) void joinWaitlist(treatment);
    else signInFirst(WAIT_PARAM, treatment);
  };

  // Back from the login page: join the waitlist the visitor asked for.
  const waitFor = params.get(WAIT_PARAM);
  useEffect(() => {
    if (!waitFor || !signedIn || !availability.data) return;
    updateParams((next) => next.delete(WAIT_PARAM));
    const treatment = availability.data.find((candidate) => candidate._id === waitFor);
    if (treatment) void joinWaitlist(treatment);
  }, [waitFor, signedIn, availability.data, updateParams, joinWaitlist]);

  // Back from the login page, or from a waitlist mail's link (with its slot): open the form of
  // the treatment the visitor picked, if still free.
  const resume = params.get(BOOK_PARAM);
  const offered = params.get(SLOT_PARAM);
  useEffect(() => {
    if (!resume || !signedIn || !availability.data) return;
    updateParams((next) => {
      next.delete(BOOK_PARAM);
      next.delete(SLOT_PARAM);
    });
    const treatment = availability.data.find((candidate) => candidate._id === resume);
    if (treatment && offered && !treatment.slots.includes(offered)) {
      toast.info(waitlistMessages.slotTaken);
    } else if (treatment && treatment.slots.length > 0) {
      const trigger = document.getElementById(bookButtonId(treatment._id));
      open(treatment, trigger, offered ?? undefined);
    } else if (treatment && day) {
      toast.info(
        `${treatment.name} has no free slots left on ${formatMediumDate(day)}. Please pick another day.`,
      );
    }
  }, [resume, offered, signedIn, availability.data, updateParams, open, day]);

  const close = useCallback(() => {
    const trigger = selection?.trigger;
    setSelection(null);
    // After a booking the confirmation panel takes focus instead.
    if (justBooked.current) {
      justBooked.current = false;
      return;
    }
    // Focus goes back to the button that opened the form, or to the list's heading without it.
    if (trigger?.isConnected && !(trigger as HTMLButtonElement).disabled) trigger.focus();
    else availableHeading.current?.focus();
  }, [selection]);

  const Title = level === 1 ? 'h1' : 'h2';

  return (
    <>
      <section
        ref={sectionRef}
        id={id}
        aria-labelledby={titleId}
        className="relative overflow-hidden bg-gradient-to-b from-mint to-base-200/70"
      >
        <Glow className="-left-40 -bottom-48 size-[30rem] rounded-full bg-primary/5" />
        <div className="container-page relative grid items-center gap-10 py-14 sm:py-16 md:grid-cols-[1fr_auto] md:gap-8 lg:gap-16 lg:py-20">
          <div className="max-w-xl">
            <p className="eyebrow">Online booking</p>
            <Title id={titleId} className="heading-2 mt-3 text-neutral">
              Pick a Day for Your Visit
            </Title>
            <p className="lead mt-5">
              Choose a date on the calendar to see which treatments still have free slots. Booking
              takes less than a minute, and you can pay online before your visit.
            </p>
            <dl className="mt-7 flex flex-wrap gap-3 text-[0.95rem]">
              <div className="rounded-box bg-base-100/80 px-4 py-3 shadow-soft">
                <dt className="text-sm text-muted">Your chosen day</dt>
                <dd className="font-semibold text-neutral">{day ? formatMediumDate(day) : '…'}</dd>
              </div>
              <div className="rounded-box bg-base-100/80 px-4 py-3 shadow-soft">
                <dt className="text-sm text-muted">Opening hours</dt>
                <dd className="font-semibold text-neutral">{OPENING_HOURS}</dd>
                {closedDays ? <dd className="text-sm text-muted">{closedDays}</dd> : null}
              </div>
            </dl>
            {timeZone && timeZone !== browserZone() ? (
              <p className="mt-4 text-sm text-muted">
                All times are the clinic&rsquo;s local time ({timeZone.replace(/_/g, ' ')}).
              </p>
            ) : null}
          </div>

          <div className="w-fit max-w-full rounded-box border border-base-300 bg-base-100 p-4 shadow-lift sm:p-6">
            <QueryState
              query={clinic}
              loading={<CalendarLoading />}
              what="The calendar"
              errorClassName="flex w-72 max-w-full flex-col items-start gap-3"
            >
              {() =>
                today && day && near ? (
                  <Suspense fallback={<CalendarLoading />}>
                    <BookingCalendar
                      aria-labelledby={titleId}
                      selected={day}
                      today={today}
                      days={monthDays.data?.days}
                      onMonthChange={setShownMonth}
                      onSelect={(picked) => {
                        pickDay(picked);
                        // On a phone the day's appointments are below the fold: bring them up.
                        revealOnNarrowScreen(availableHeading.current);
                      }}
                    />
                  </Suspense>
                ) : (
                  <CalendarLoading />
                )
              }
            </QueryState>
          </div>
        </div>
      </section>

      {booked ? (
        <BookingConfirmation
          key={booked._id}
          booking={booked}
          policy={policyOf(clinic.data, calendar.data, booked.cancellable)}
          onDismiss={() => {
            setBooked(null);
            availableHeading.current?.focus();
          }}
        />
      ) : null}

      {day ? (
        <AvailableAppointments
          date={day}
          status={monthDays.data?.days.find((shown) => shown.date === day)}
          nextOpenDay={
            nextOpenDay
              ? {
                  date: nextOpenDay,
                  // The button goes with the day it was shown for: the heading keeps the focus.
                  onPick: () => {
                    pickDay(nextOpenDay);
                    availableHeading.current?.focus();
                  },
                }
              : undefined
          }
          availability={availability}
          onBook={onBook}
          highlighted={highlighted}
          onJoinWaitlist={onJoinWaitlist}
          waitingFor={waitingFor}
          onIntent={signedIn ? () => void loadBookingModal().catch(() => {}) : undefined}
          headingRef={availableHeading}
        />
      ) : null}

      {selection && day ? (
        <Suspense fallback={null}>
          <BookingModal
            treatment={selection.treatment}
            date={day}
            onClose={close}
            policy={policyOf(clinic.data, calendar.data)}
            initialSlot={selection.slot}
            onBooked={(booking) => {
              justBooked.current = true;
              setBooked(booking);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}
