import {
  addDays,
  type BookingStatus,
  clinicMayCancel,
  type IsoDate,
  nextVisitStatuses,
  parseIsoDate,
  SCHEDULE_SEARCH_MIN,
  type ScheduleEntry,
  slotStartMinutes,
  type VisitStatus,
  weekStart,
} from '@doctors-portal/contract';

/**
 * The schedule screen's logic, apart from React: which days a view covers, the bookings of each
 * day in slot order, what staff may do to a booking, and the export's address.
 */

export type ScheduleView = 'day' | 'week';

/** What the address says: `?date=2031-01-05&view=week&treatment=…&doctor=…&q=…&cancelled=1`. */
export interface ScheduleParams {
  date: IsoDate;
  view: ScheduleView;
  treatmentId: string;
  /** One doctor's bookings only (their id), those with no doctor (`NO_DOCTOR`), or '' for all. */
  doctorId: string;
  q: string;
  showCancelled: boolean;
}

/**
 * The days the schedule can show: those whose week (Sunday to Saturday) has an ISO date every
 * day, from the first Sunday of 1970 to the last Saturday of 9999.
 */
const FIRST_SHOWN = '1970-01-04';
const LAST_SHOWN = '9999-12-25';
const shown = (date: IsoDate | null): date is IsoDate =>
  date !== null && date >= FIRST_SHOWN && date <= LAST_SHOWN;

/** Reads the address; a missing, impossible or unshowable date means the clinic's today. */
export function paramsFrom(search: URLSearchParams, today: IsoDate): ScheduleParams {
  const asked = parseIsoDate(search.get('date') ?? '');
  return {
    date: shown(asked) ? asked : today,
    view: search.get('view') === 'week' ? 'week' : 'day',
    treatmentId: search.get('treatment') ?? '',
    doctorId: search.get('doctor') ?? '',
    q: search.get('q') ?? '',
    showCancelled: search.get('cancelled') === '1',
  };
}

/** The address of `params`, leaving out what is the default (today, the day view, …). */
export function searchOf(params: ScheduleParams, today: IsoDate): Record<string, string> {
  return {
    ...(params.date === today ? {} : { date: params.date }),
    ...(params.view === 'week' ? { view: 'week' } : {}),
    ...(params.treatmentId ? { treatment: params.treatmentId } : {}),
    ...(params.doctorId ? { doctor: params.doctorId } : {}),
    ...(params.q ? { q: params.q } : {}),
    ...(params.showCancelled ? { cancelled: '1' } : {}),
  };
}

/** The days a view covers: the day, or its week (Sunday to Saturday). */
export function rangeOf(params: Pick<ScheduleParams, 'date' | 'view'>): {
  from: IsoDate;
  to: IsoDate;
} {
  if (params.view === 'week') {
    const from = weekStart(params.date);
    return { from, to: addDays(from, 6) };
  }
  return { from: params.date, to: params.date };
}

/** Whether a search is long enough to ask the server (2 characters or more, once trimmed). */
export function searchable(q: string): boolean {
  return q.trim().length >= SCHEDULE_SEARCH_MIN;
}

/**
 * The days of a search's answer as the server orders them (upcoming soonest first, then past
 * latest first), each once: `byDay` groups the bookings under them.
 */
export function daysFound(bookings: Array<Pick<ScheduleEntry, 'date'>>): IsoDate[] {
  return [...new Set(bookings.map((entry) => entry.date))];
}

/**
 * The day the previous or next button goes to: a day, or a week, away; null past the days the
 * schedule can show.
 */
export function step(
  params: Pick<ScheduleParams, 'date' | 'view'>,
  direction: -1 | 1,
): IsoDate | null {
  const to = parseIsoDate(addDays(params.date, direction * (params.view === 'week' ? 7 : 1)));
  return shown(to) ? to : null;
}

/** Every day from `from` to `to`, both included. */
export function daysOf(from: IsoDate, to: IsoDate): IsoDate[] {
  const days: IsoDate[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * By date, then by the slot's start time: labels do not sort as text ('1:00 PM' comes after
 * '12:00 PM'); a label that names no time goes last.
 */
export function inSlotOrder<T extends Pick<ScheduleEntry, 'date' | 'slot'>>(bookings: T[]): T[] {
  const start = (entry: T) => slotStartMinutes(entry.slot) ?? Number.MAX_SAFE_INTEGER;
  return bookings
    .map((entry) => ({ entry, start: start(entry) }))
    .sort(
      (a, b) =>
        (a.entry.date < b.entry.date ? -1 : a.entry.date > b.entry.date ? 1 : 0) ||
        a.start - b.start,
    )
    .map(({ entry }) => entry);
}

/** The bookings of each day of the range, in slot order; cancelled ones only when asked for. */
export function byDay<T extends Pick<ScheduleEntry, 'date' | 'slot' | 'status'>>(
  bookings: T[],
  days: IsoDate[],
  showCancelled: boolean,
): Array<{ date: IsoDate; bookings: T[] }> {
  const shown = inSlotOrder(
    bookings.filter((entry) => showCancelled || entry.status !== 'cancelled'),
  );
  return days.map((date) => ({ date, bookings: shown.filter((entry) => entry.date === date) }));
}

/** The Doctor filter's value for the bookings of treatments no doctor performs (one chair). */
export const NO_DOCTOR = 'none';

/** Whether a booking is left by the Doctor filter ('' keeps every booking). */
export function withDoctor(entry: Pick<ScheduleEntry, 'doctor'>, doctorId: string): boolean {
  if (!doctorId) return true;
  if (doctorId === NO_DOCTOR) return !entry.doctor;
  return entry.doctor?._id === doctorId;
}

export interface DoctorGroup<T> {
  /** null: the bookings of treatments no doctor performs. */
  doctor: { _id: string; name: string } | null;
  bookings: T[];
}

/**
 * A day's bookings under each doctor, doctors by name, in the order given within each; then,
 * under `doctor: null`, the bookings with no doctor. A doctor with no bookings has no group.
 */
export function byDoctor<T extends Pick<ScheduleEntry, 'doctor'>>(bookings: T[]): DoctorGroup<T>[] {
  const groups = new Map<string, DoctorGroup<T>>();
  const none: T[] = [];
  for (const entry of bookings) {
    if (!entry.doctor) {
      none.push(entry);
      continue;
    }
    const group = groups.get(entry.doctor._id);
    if (group) group.bookings.push(entry);
    else groups.set(entry.doctor._id, { doctor: entry.doctor, bookings: [entry] });
  }
  const named = [...groups.values()].sort((a, b) =>
    (a.doctor?.name ?? '').localeCompare(b.doctor?.name ?? ''),
  );
  return none.length > 0 ? [...named, { doctor: null, bookings: none }] : named;
}

/** What each visit-status button says and does. */
export const VISIT_ACTION_LABELS: Record<VisitStatus, string> = {
  arrived: 'Mark arrived',
  completed: 'Mark completed',
  no_show: 'Mark no-show',
};

/**
 * What staff may do to a booking from the schedule: the visit statuses it may move to (only on
 * or after its day, as the server allows), and whether it may be cancelled (booked or confirmed,
 * and not on a past day; the server also refuses a visit that has started).
 */
export function actionsFor(
  booking: { status: BookingStatus; date: IsoDate },
  today: IsoDate,
): { visit: VisitStatus[]; cancel: boolean } {
  return {
    visit: booking.date <= today ? nextVisitStatuses(booking.status) : [],
    cancel: clinicMayCancel(booking.status) && booking.date >= today,
  };
}

/** `/schedule.csv?from=…&to=…` (relative to /api), with the treatment and search when given. */
export function scheduleCsvPath(query: {
  from: IsoDate;
  to: IsoDate;
  treatmentId?: string;
  q?: string;
}): string {
  const search = new URLSearchParams({ from: query.from, to: query.to });
  if (query.treatmentId) search.set('treatmentId', query.treatmentId);
  if (query.q?.trim()) search.set('q', query.q.trim());
  return `/schedule.csv?${search}`;
}
