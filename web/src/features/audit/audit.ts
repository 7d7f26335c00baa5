import {
  type AuditEntry,
  centsToDollars,
  formatDollars,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
} from '@doctors-portal/contract';

/**
 * The audit log screen's logic, apart from React: the filters in the address, the names of the
 * actions, who acted and what changed.
 */

/** What the address says: `?from=2031-01-01&to=2031-01-31&actor=…&action=booking.*&cursor=…`. */
export interface AuditFilter {
  from: IsoDate | '';
  to: IsoDate | '';
  actor: string;
  action: string;
  /** The page after the one this cursor ended; '' for the newest entries. */
  cursor: string;
}

const ACTION = /^[a-z_]+(\.([a-z_]+|\*))*$/;

/** Reads the address; an impossible date or action is left out rather than sent. */
export function filterFrom(search: URLSearchParams): AuditFilter {
  const action = search.get('action') ?? '';
  return {
    from: parseIsoDate(search.get('from') ?? '') ?? '',
    to: parseIsoDate(search.get('to') ?? '') ?? '',
    actor: (search.get('actor') ?? '').trim().slice(0, 200),
    action: ACTION.test(action) ? action : '',
    cursor: search.get('cursor') ?? '',
  };
}

/** The address (and the API's query) of a filter, leaving out what is empty. */
export function querySearchOf(filter: AuditFilter): Record<string, string> {
  return Object.fromEntries(
    Object.entries({
      from: filter.from,
      to: filter.to,
      actor: filter.actor.trim(),
      action: filter.action,
      cursor: filter.cursor,
    }).filter(([, value]) => value !== ''),
  );
}

/** Whether the range runs backwards: the form says so rather than asking the server. */
export function rangeProblem(filter: Pick<AuditFilter, 'from' | 'to'>): string | null {
  return filter.from && filter.to && filter.from > filter.to
    ? 'The start date must not be after the end date.'
    : null;
}

/** The choices of the action filter by value, families first; '' is every action. */
const ACTION_CHOICE_LABELS: Record<string, string> = {
  '': 'All actions',
  'booking.*': 'Bookings: all',
  'booking.created': 'Bookings: made',
  'booking.cancelled': 'Bookings: cancelled',
  'booking.rescheduled': 'Bookings: moved',
  'booking.paid': 'Bookings: paid',
  'booking.refunded': 'Bookings: refunded',
  'booking.refund_failed': 'Bookings: refund failed',
  'booking.status': 'Bookings: visit status',
  'role.*': 'Roles',
  'user.removed': 'Accounts removed',
  'doctor.*': 'Doctors',
  'treatment.*': 'Treatments',
  'clinic.*': 'Clinic rules, opening days and closures',
};

export const ACTION_CHOICES = Object.entries(ACTION_CHOICE_LABELS).map(([value, label]) => ({
  value,
  label,
}));

const ACTION_NAMES: Record<string, string> = {
  'booking.created': 'Booking made',
  'booking.cancelled': 'Booking cancelled',
  'booking.rescheduled': 'Booking moved',
  'booking.paid': 'Booking paid',
  'booking.refunded': 'Payment refunded',
  'booking.refund_failed': 'Refund failed',
  'booking.status': 'Visit status changed',
  'role.granted': 'Admin role given',
  'role.revoked': 'Admin role taken away',
  'user.removed': 'Account removed',
  'doctor.added': 'Doctor added',
  'doctor.updated': 'Doctor changed',
  'doctor.deleted': 'Doctor deleted',
  'doctor.calendar_feed_created': 'Calendar feed link made',
  'doctor.calendar_feed_revoked': 'Calendar feed stopped',
  'treatment.created': 'Treatment added',
  'treatment.updated': 'Treatment changed',
  'treatment.retired': 'Treatment retired',
  'treatment.restored': 'Treatment offered again',
  'clinic.opening_days_changed': 'Opening days changed',
  'clinic.closure_added': 'Closure added',
  'clinic.closure_removed': 'Closure removed',
  'clinic.rules_changed': 'Booking rules changed',
};

/** 'Booking made' for 'booking.created'; an action without a name of its own as it is. */
export const actionName = (action: string) => ACTION_NAMES[action] ?? action;

/** Who acted, as the list shows them: a name and what they are, or the server itself. */
export function actorOf(entry: AuditEntry): { name: string; detail: string | null; kind: string } {
  const { actor } = entry;
  if (actor.kind === 'system') {
    return {
      name: 'System',
      detail: actor.name && actor.name !== 'system' ? actor.name : null,
      kind: 'System',
    };
  }
  return {
    name: actor.name?.trim() || actor.email || 'A removed account',
    detail: actor.email,
    kind: actor.kind === 'admin' ? 'Admin' : 'Patient',
  };
}

/** The subject as a person reads it: its label, or its kind and id. */
export function subjectOf(entry: AuditEntry): string {
  const kind = entry.subject.type.charAt(0).toUpperCase() + entry.subject.type.slice(1);
  return entry.subject.label ? `${kind}: ${entry.subject.label}` : `${kind} ${entry.subject.id}`;
}

/** When an entry was made, or a moment it recorded, in the clinic's zone: 'Jan 5, 2031, 10:00:00 AM'. */
export function momentIn(at: string, timeZone: string): string {
  let format = MOMENT_FORMATS.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'medium',
    });
    MOMENT_FORMATS.set(timeZone, format);
  }
  return format.format(new Date(at));
}

/** One formatter per zone: building one costs more than the page's every use of it. */
const MOMENT_FORMATS = new Map<string, Intl.DateTimeFormat>();

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** A field kept in cents ('priceCents', 'amount_cents'), shown in dollars under its own name. */
const CENTS = /[_ ]?cents$/i;

/**
 * A changed field's value as text: '—' for none, an amount in cents as dollars, a moment in the
 * clinic's zone and an ISO date in the medium format, as the rest of the portal shows them.
 */
export function shown(value: unknown, key: string, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'number' && CENTS.test(key)) return formatDollars(centsToDollars(value));
  if (typeof value === 'string') {
    if (TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))) return momentIn(value, timeZone);
    const date = parseIsoDate(value);
    return date ? formatMediumDate(date) : value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** 'priceCents' → 'Price'; 'cancel_reason' → 'Cancel reason'. */
export function fieldName(key: string): string {
  const words = key
    .replace(CENTS, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface Change {
  field: string;
  before: string | null;
  after: string | null;
}

/**
 * The fields an entry changed, in the order they were recorded: each with its value before and
 * after (null where the entry has no such side, e.g. a booking made has no 'before'), moments
 * shown in `timeZone`, the clinic's.
 */
export function changesOf(entry: AuditEntry, timeZone: string): Change[] {
  const keys = [
    ...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]),
  ];
  return keys.map((key) => ({
    field: fieldName(key),
    before: entry.before ? shown(entry.before[key], key, timeZone) : null,
    after: entry.after ? shown(entry.after[key], key, timeZone) : null,
  }));
}
