import {
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
  SCHEDULE_SEARCH_LIMIT,
  SCHEDULE_SEARCH_MAX,
  SCHEDULE_SEARCH_MIN,
  type ScheduleEntry,
  type ScheduleSearch,
  STATUS_LABELS,
  todayIn,
  type VisitStatus,
} from '@doctors-portal/contract';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useCancelByClinic } from '../../../api/cancel-by-clinic';
import { clinicQuery, useClinicTimeZone } from '../../../api/clinic';
import { doctorsQuery } from '../../../api/doctors';
import { treatmentsQuery } from '../../../api/treatments';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { PageLoader, Spinner } from '../../../components/spinner';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { scheduleQuery } from '../api/get-schedule';
import { scheduleSearchQuery } from '../api/search-schedule';
import { useSetVisitStatus } from '../api/set-visit-status';
import {
  byDay,
  byDoctor,
  daysFound,
  daysOf,
  NO_DOCTOR,
  paramsFrom,
  rangeOf,
  type ScheduleParams,
  searchable,
  searchOf,
  step,
  withDoctor,
} from '../schedule';
import { CancelDialog } from './cancel-dialog';
import { dayHeading } from './day-heading';
import { DaySheet } from './day-sheet';
import { ExportForm } from './export-form';
import { rowId, ScheduleTable, type ScheduleTableProps } from './schedule-table';
import './schedule-print.css';

/** One of the schedule's drop-down filters, its label above it. */
function FilterSelect({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <select
        className="select select-sm w-full"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {children}
      </select>
    </label>
  );
}

/**
 * /dashboard/schedule (admin): the clinic's bookings of a day or a week, in slot order, with each
 * patient's phone, age and no-shows, paid or not and where each visit stands. Staff mark visits
 * arrived, completed or no-show and cancel bookings with a reason; they move between days and
 * weeks, keep one treatment or one doctor (the day view groups its bookings under each doctor),
 * search patients by name or email across all dates, print the day sheet and export a range as
 * CSV. Everything the screen shows is in its address.
 */
export function SchedulePage() {
  const clinic = useQuery(clinicQuery);
  const timeZone = useClinicTimeZone();
  if (!clinic.data && clinic.isPending) return <PageLoader label="Loading the schedule…" />;
  return <Schedule today={todayIn(timeZone)} />;
}

function Schedule({ today }: { today: ReturnType<typeof todayIn> }) {
  const [search, setSearch] = useSearchParams();
  const params = paramsFrom(search, today);
  // A search covers every date: while the box has text, its matches replace the day or week.
  const q = params.q.trim();
  const searching = q !== '';
  const { from, to } = rangeOf(params);
  const schedule = useQuery({
    ...scheduleQuery({ from, to, treatmentId: params.treatmentId, q: '' }),
    enabled: !searching,
  });
  const found = useQuery({ ...scheduleSearchQuery(q), enabled: searchable(q) });
  const shownQuery = searching ? found : schedule;
  const treatments = useQuery(treatmentsQuery);
  const doctors = useQuery(doctorsQuery);
  const setStatus = useSetVisitStatus();
  const cancelling = useCancelByClinic();
  const heading = useScreenHeading();
  const [toCancel, setToCancel] = useState<{
    booking: ScheduleEntry;
    opener: HTMLButtonElement;
  } | null>(null);

  const go = (change: Partial<ScheduleParams>) =>
    setSearch(searchOf({ ...params, ...change }, today), { preventScrollReset: true });
  /** Moving to a day or a week leaves a search for that day or week. */
  const goTo = (change: Partial<ScheduleParams>) => go({ ...change, q: '' });

  // The box shows its new state at once: the address changes in a transition, which React may
  // hold back while the new view renders.
  const [showCancelled, setShowCancelled] = useState(params.showCancelled);
  useEffect(() => setShowCancelled(params.showCancelled), [params.showCancelled]);

  // The search box asks the server once typing pauses.
  const [draft, setDraft] = useState(params.q);
  // Only a new search in the address resets the box.
  useEffect(() => setDraft(params.q), [params.q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: go only wraps setSearch.
  useEffect(() => {
    if (draft === params.q) return;
    const timer = setTimeout(() => go({ q: draft }), 300);
    return () => clearTimeout(timer);
  }, [draft]);

  // The server's today, should the day have turned since the page was opened.
  const clinicToday = parseIsoDate(schedule.data?.today ?? '') ?? today;
  const days = daysOf(from, to);
  const busy = setStatus.isPending
    ? (setStatus.variables?.id ?? null)
    : cancelling.isPending
      ? (cancelling.variables?.id ?? null)
      : null;

  /**
   * After a change the row's buttons are new: once the schedule shows it, the row's first
   * button takes the focus, or the heading when the row offers none.
   */
  const [focusAfter, setFocusAfter] = useState<string | null>(null);
  useEffect(() => {
    if (!focusAfter || busy || shownQuery.isFetching) return;
    const target =
      document
        .getElementById(rowId({ _id: focusAfter }))
        ?.querySelector<HTMLButtonElement>('button:not([disabled])') ?? heading.ref.current;
    target?.focus();
    setFocusAfter(null);
  }, [focusAfter, busy, shownQuery.isFetching, heading.ref.current]);

  const changeStatus = async (booking: ScheduleEntry, status: VisitStatus) => {
    try {
      const { booking: now } = await setStatus.mutateAsync({ id: booking._id, status });
      toast.success(`${booking.patientName} (${booking.slot}): ${STATUS_LABELS[now.status]}.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'The visit could not be updated.'));
    }
    setFocusAfter(booking._id);
  };

  const confirmCancel = async (why: string): Promise<string | null> => {
    if (!toCancel) return null;
    const { booking } = toCancel;
    try {
      const cancelled = await cancelling.mutateAsync({ id: booking._id, reason: why });
      setToCancel(null);
      const what = `${booking.patientName}’s ${booking.treatment} on ${formatMediumDate(booking.date)} at ${booking.slot}`;
      toast.success(
        cancelled.refund
          ? `Cancelled ${what}. The payment was refunded (refund id ${cancelled.refund.id}).`
          : `Cancelled ${what}.`,
      );
      // Once the dialog has closed and the schedule shows the change: the row offers no button
      // now, so the heading takes the focus (not the dialog's opener, which is gone).
      setFocusAfter(booking._id);
      return null;
    } catch (error) {
      if (error instanceof SessionEndedError) return null;
      return reasonOf(error, 'The booking could not be cancelled.');
    }
  };

  const closeDialog = () => {
    const opener = toCancel?.opener;
    setToCancel(null);
    opener?.focus();
  };

  const title = searching
    ? searchTitle(q, found.data && !found.isPlaceholderData ? found.data : undefined, params)
    : params.view === 'week'
      ? `Week of ${formatMediumDate(from)} to ${formatMediumDate(to)}`
      : dayHeading(params.date);
  const unit = params.view === 'week' ? 'week' : 'day';
  const [previous, next] = [step(params, -1), step(params, 1)];
  // In the day view, each doctor's bookings come under their name.
  const groupByDoctor = !searching && params.view === 'day';
  // What every day's table does with its rows.
  const rowActions: Omit<SectionProps, 'bookings'> = {
    today: clinicToday,
    busy,
    onStatus: (booking, status) => void changeStatus(booking, status),
    onCancel: (booking, opener) => setToCancel({ booking, opener }),
  };
  const renderDay: RenderDay = (day, doctorColumn) => (
    <DaySection
      key={day.date}
      {...day}
      {...rowActions}
      groupByDoctor={groupByDoctor}
      doctorColumn={doctorColumn}
    />
  );
  const treatmentName = treatments.data?.find((entry) => entry._id === params.treatmentId)?.name;
  // The clinic's doctors, and any a shown booking names who is no longer listed.
  const shownEntries = (searching ? found.data?.bookings : schedule.data?.bookings) ?? [];
  const doctorOptions = new Map<string, string>(
    (doctors.data ?? []).map((doctor) => [doctor._id, doctor.name]),
  );
  for (const entry of shownEntries) {
    if (entry.doctor && !doctorOptions.has(entry.doctor._id)) {
      doctorOptions.set(entry.doctor._id, entry.doctor.name);
    }
  }
  const doctorName =
    params.doctorId === NO_DOCTOR ? 'No doctor' : doctorOptions.get(params.doctorId);
  const filterNames = [treatmentName, doctorName].filter(Boolean).join(' · ');
  const filtersShown = filterNames ? ` · ${filterNames}` : '';
  // A retired treatment's bookings stay on the schedule, so it can still be chosen.
  const offered = treatments.data?.filter((treatment) => !treatment.retired) ?? [];
  const retired = treatments.data?.filter((treatment) => treatment.retired) ?? [];

  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title="Schedule"
        heading={heading}
        className="print:hidden"
      >
        <p className="mt-1 text-muted" aria-live="polite">
          {title}
          {filtersShown}
        </p>
      </PageHeading>

      <div className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 shadow-soft print:hidden">
        <div className="flex flex-wrap items-center gap-2">
          <fieldset className="join" aria-label="View">
            {(['day', 'week'] as const).map((view) => (
              <button
                key={view}
                type="button"
                className={`btn btn-sm join-item ${params.view === view ? 'btn-primary' : 'btn-outline'}`}
                aria-pressed={!searching && params.view === view}
                onClick={() => goTo({ view })}
              >
                {view === 'day' ? 'Day' : 'Week'}
              </button>
            ))}
          </fieldset>
          <div className="flex flex-wrap items-center gap-2">
            <button
              type="button"
              className="btn btn-sm btn-outline"
              disabled={previous === null}
              onClick={() => previous && goTo({ date: previous })}
            >
              {`Previous ${unit}`}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline"
              disabled={!searching && params.date === today}
              onClick={() => goTo({ date: today })}
            >
              Today
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline"
              disabled={next === null}
              onClick={() => next && goTo({ date: next })}
            >
              {`Next ${unit}`}
            </button>
          </div>
          <button
            type="button"
            className="btn btn-sm btn-ghost sm:ml-auto"
            onClick={() => window.print()}
          >
            {searching
              ? 'Print matches'
              : params.view === 'week'
                ? 'Print week'
                : 'Print day sheet'}
          </button>
        </div>
        <div className="grid items-end gap-3 sm:grid-cols-2 xl:grid-cols-5">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Date
            <input
              type="date"
              className="input input-sm w-full"
              value={params.date}
              onChange={(event) => {
                if (event.target.value) goTo({ date: event.target.value as typeof params.date });
              }}
            />
          </label>
          <FilterSelect
            label="Treatment"
            value={params.treatmentId}
            onChange={(treatmentId) => go({ treatmentId })}
          >
            <option value="">All treatments</option>
            {offered.map((treatment) => (
              <option key={treatment._id} value={treatment._id}>
                {treatment.name}
              </option>
            ))}
            {retired.length > 0 && (
              <optgroup label="Retired">
                {retired.map((treatment) => (
                  <option key={treatment._id} value={treatment._id}>
                    {treatment.name}
                  </option>
                ))}
              </optgroup>
            )}
          </FilterSelect>
          <FilterSelect
            label="Doctor"
            value={params.doctorId}
            onChange={(doctorId) => go({ doctorId })}
          >
            <option value="">All doctors</option>
            {[...doctorOptions]
              .sort(([, a], [, b]) => a.localeCompare(b))
              .map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            {params.doctorId &&
            params.doctorId !== NO_DOCTOR &&
            !doctorOptions.has(params.doctorId) ? (
              <option value={params.doctorId}>A doctor no longer listed</option>
            ) : null}
            <option value={NO_DOCTOR}>No doctor</option>
          </FilterSelect>
          <label className="flex flex-col gap-1 text-sm font-medium">
            Search patients, all dates
            <input
              type="search"
              className="input input-sm w-full"
              placeholder="Name or email"
              value={draft}
              maxLength={SCHEDULE_SEARCH_MAX}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                // Enter searches at once; Escape (the browser clears the box) leaves the search.
                if (event.key === 'Enter') go({ q: draft });
                if (event.key === 'Escape') go({ q: '' });
              }}
            />
          </label>
          <label className="flex items-center gap-2 self-end pb-1 text-sm font-medium">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={showCancelled}
              onChange={(event) => {
                setShowCancelled(event.target.checked);
                go({ showCancelled: event.target.checked });
              }}
            />
            Show cancelled
          </label>
        </div>
      </div>

      {searching ? (
        <SearchResults
          q={q}
          query={found}
          showCancelled={params.showCancelled}
          treatmentId={params.treatmentId}
          doctorId={params.doctorId}
          title={title}
          filtersShown={filtersShown}
          renderDay={renderDay}
          onClear={() => {
            setDraft('');
            go({ q: '' });
          }}
        />
      ) : (
        <QueryState
          query={schedule}
          loading={<TableLoading label="Loading the schedule…" />}
          what="The schedule"
        >
          {(answer) => {
            const kept = answer.bookings.filter((entry) => withDoctor(entry, params.doctorId));
            const hiddenCancelled = params.showCancelled
              ? 0
              : kept.filter((entry) => entry.status === 'cancelled').length;
            return (
              <>
                <div className="flex flex-col gap-6 print:hidden" aria-busy={schedule.isFetching}>
                  {byDay(kept, days, params.showCancelled).map((day) =>
                    renderDay(
                      day,
                      kept.some((entry) => entry.doctor),
                    ),
                  )}
                  <HiddenCancelled count={hiddenCancelled} />
                </div>
                <DaySheet
                  title={`Doctors Portal: ${title}${filtersShown}`}
                  days={byDay(kept, days, false)}
                />
              </>
            );
          }}
        </QueryState>
      )}

      <ExportForm
        from={from}
        to={to}
        treatmentId={params.treatmentId}
        note={
          params.doctorId
            ? 'The file lists every doctor’s bookings of the range: the Doctor filter is not applied to it.'
            : undefined
        }
      />

      <CancelDialog
        booking={toCancel?.booking ?? null}
        onConfirm={confirmCancel}
        onClose={closeDialog}
      />
    </div>
  );
}

/** What a day's or a doctor's section hands on to its table. */
type SectionProps = Pick<
  ScheduleTableProps,
  'bookings' | 'today' | 'busy' | 'onStatus' | 'onCancel'
>;

/**
 * A section's count: its bookings that are not cancelled, then the cancelled ones it shows (only
 * with 'Show cancelled'), so that '0 bookings' never heads rows on screen.
 */
function sectionCount(bookings: ScheduleEntry[]): string {
  const cancelled = bookings.filter((entry) => entry.status === 'cancelled').length;
  const live = bookingsCount(bookings.length - cancelled);
  return cancelled === 0 ? live : `${live} · ${cancelled} cancelled`;
}

/**
 * A day's section; `doctorColumn`: whether its table has a Doctor column, the same for every day
 * shown (any booking shown has a doctor), so that the columns line up from day to day.
 */
type RenderDay = (
  day: { date: IsoDate; bookings: ScheduleEntry[] },
  doctorColumn: boolean,
) => ReactNode;

function DaySection({
  date,
  groupByDoctor,
  doctorColumn,
  ...table
}: SectionProps & {
  date: ReturnType<typeof todayIn>;
  /** A section per doctor, then 'No doctor', when any booking of the day has a doctor. */
  groupByDoctor: boolean;
  doctorColumn: boolean;
}) {
  const headingId = useId();
  const { bookings, today } = table;
  return (
    // Not a landmark of its own: the day's table is one, named by this heading.
    <div className="flex flex-col gap-3">
      <h2 id={headingId} className="heading-3 flex flex-wrap items-baseline gap-x-3 text-neutral">
        {dayHeading(date)}
        <span className="text-sm font-normal text-muted">
          {`${sectionCount(bookings)}${date === today ? ' · today' : ''}`}
        </span>
      </h2>
      {bookings.length === 0 ? (
        <p className="rounded-box border border-dashed border-base-300 bg-base-100 px-4 py-6 text-center text-muted">
          No bookings on this day.
        </p>
      ) : groupByDoctor && bookings.some((entry) => entry.doctor) ? (
        <div className="flex flex-col gap-5">
          {byDoctor(bookings).map((group) => (
            <DoctorSection
              key={group.doctor?._id ?? NO_DOCTOR}
              {...table}
              doctor={group.doctor}
              bookings={group.bookings}
            />
          ))}
        </div>
      ) : (
        <ScheduleTable {...table} labelledBy={headingId} showDoctor={doctorColumn} />
      )}
    </div>
  );
}

/** One doctor's bookings of the day (or those with no doctor), under their name. */
function DoctorSection({
  doctor,
  ...table
}: SectionProps & { doctor: { _id: string; name: string } | null }) {
  const headingId = useId();
  return (
    <div className="flex flex-col gap-2" data-doctor={doctor?._id ?? NO_DOCTOR}>
      <h3
        id={headingId}
        className="flex flex-wrap items-baseline gap-x-2 border-l-4 border-primary pl-3 text-lg font-semibold text-neutral"
      >
        {doctor ? doctor.name : 'No doctor'}
        <span className="text-sm font-normal text-muted">{sectionCount(table.bookings)}</span>
      </h3>
      <ScheduleTable {...table} labelledBy={headingId} />
    </div>
  );
}

const bookingsCount = (count: number) => `${count} ${count === 1 ? 'booking' : 'bookings'}`;

/** What the search found, as the page's subtitle says it (and a screen reader hears it). */
function searchTitle(
  q: string,
  answer: ScheduleSearch | undefined,
  params: Pick<ScheduleParams, 'showCancelled' | 'treatmentId' | 'doctorId'>,
): string {
  if (!searchable(q)) return `Type at least ${SCHEDULE_SEARCH_MIN} characters to search.`;
  if (!answer) return `Searching for “${q}”…`;
  const shown = shownMatches(answer.bookings, params).length;
  return answer.more
    ? `${bookingsCount(shown)} for “${q}”, of the ${SCHEDULE_SEARCH_LIMIT} most relevant`
    : `${bookingsCount(shown)} for “${q}”`;
}

/**
 * The matches the filters leave: one treatment's, one doctor's, and cancelled ones only when
 * asked for.
 */
function shownMatches(
  bookings: ScheduleEntry[],
  params: Pick<ScheduleParams, 'showCancelled' | 'treatmentId' | 'doctorId'>,
): ScheduleEntry[] {
  return bookings.filter(
    (entry) =>
      (params.showCancelled || entry.status !== 'cancelled') &&
      (!params.treatmentId || entry.treatmentId === params.treatmentId) &&
      withDoctor(entry, params.doctorId),
  );
}

function HiddenCancelled({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="text-sm text-muted">
      {`${count} cancelled ${count === 1 ? 'booking is' : 'bookings are'} not shown.`}
    </p>
  );
}

/**
 * A search's matches on every date, grouped by day: upcoming days soonest first, then past days
 * latest first, each in slot order, with the day view's tables and actions.
 */
function SearchResults({
  q,
  query,
  showCancelled,
  treatmentId,
  doctorId,
  title,
  filtersShown,
  renderDay,
  onClear,
}: {
  q: string;
  query: UseQueryResult<ScheduleSearch>;
  showCancelled: boolean;
  treatmentId: string;
  doctorId: string;
  title: string;
  /** ' · Teeth Cleaning · Dr. Ana', the filters' names, or ''. */
  filtersShown: string;
  renderDay: RenderDay;
  onClear: () => void;
}) {
  const clear = (
    <button type="button" className="btn btn-sm btn-outline" onClick={onClear}>
      Clear search
    </button>
  );
  if (!searchable(q)) {
    return (
      <p className="rounded-box border border-dashed border-base-300 bg-base-100 px-4 py-6 text-center text-muted print:hidden">
        {`Type at least ${SCHEDULE_SEARCH_MIN} characters of a patient’s name or email to search every date.`}
      </p>
    );
  }
  return (
    <QueryState
      query={query}
      loading={
        <TableLoading>
          <Spinner label={`Searching for “${q}”…`} />
        </TableLoading>
      }
      what={`The bookings matching “${q}”`}
    >
      {(answer) => {
        const filters = { showCancelled: true, treatmentId, doctorId };
        const matching = shownMatches(answer.bookings, filters);
        const grouped = byDay(matching, daysFound(matching), showCancelled).filter(
          (day) => day.bookings.length > 0,
        );
        const hiddenCancelled = showCancelled
          ? 0
          : matching.filter((entry) => entry.status === 'cancelled').length;
        return (
          <>
            <div className="flex flex-col gap-6 print:hidden" aria-busy={query.isFetching}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="text-sm text-muted">
                  {answer.more
                    ? `Showing the ${SCHEDULE_SEARCH_LIMIT} most relevant matches, upcoming first: type more of the name or email to find others.`
                    : 'Upcoming bookings first, soonest first; then past ones, latest first.'}
                </p>
                {clear}
              </div>
              {grouped.length === 0 ? (
                <EmptyState title={`No bookings for “${answer.q}”`}>
                  {answer.bookings.length === 0
                    ? `Nobody whose name or email contains “${answer.q}” has a booking on any date.`
                    : 'None of the matches is left by the treatment, doctor or cancelled filter.'}
                </EmptyState>
              ) : null}
              {grouped.map((day) =>
                renderDay(
                  day,
                  matching.some((entry) => entry.doctor),
                ),
              )}
              <HiddenCancelled count={hiddenCancelled} />
            </div>
            <DaySheet
              title={`Doctors Portal: ${title}${filtersShown}`}
              days={byDay(matching, daysFound(matching), false).filter(
                (day) => day.bookings.length > 0,
              )}
            />
          </>
        );
      }}
    </QueryState>
  );
}
