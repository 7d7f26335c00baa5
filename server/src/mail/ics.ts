/**
 * iCalendar (RFC 5545) text for a single appointment, written by hand because it is small:
 * CRLF line endings, TEXT values escaped, lines folded at 75 octets, and the event's wall-clock
 * times given in the clinic's IANA time zone (`DTSTART;TZID=America/New_York:20260105T100000`)
 * together with the VTIMEZONE that the standard requires for every TZID used.
 */

export interface CalendarEvent {
  /** Globally unique and stable, so that a later update of the same event replaces it. */
  uid: string;
  /** The appointment's calendar date 'YYYY-MM-DD' in `timeZone`. */
  date: string;
  /** Minutes after local midnight; an end at or before the start falls on the next day. */
  startMinutes: number;
  endMinutes: number;
  /** IANA time zone of the clinic, e.g. 'America/New_York'. */
  timeZone: string;
  summary: string;
  description?: string;
  location?: string;
  organizer?: { name: string; email: string };
  url?: string;
  /**
   * 'PUBLISH' adds the event to a calendar; 'REQUEST' asks for an answer; 'CANCEL' removes the
   * event of the same `uid` (its STATUS is CANCELLED). Default PUBLISH.
   */
  method?: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  /**
   * The revision of the event (SEQUENCE): 0 when first sent, higher for each later change of the
   * same `uid`, which calendars apply only when it is higher than what they hold. Default 0, or
   * 1 for a cancellation.
   */
  sequence?: number;
  /** When the calendar object was created (DTSTAMP); defaults to now. */
  stamp?: Date;
}

const CRLF = '\r\n';
const MAX_OCTETS = 75;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Escapes a TEXT value: backslash, semicolon, comma and line breaks (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value: quoted when it holds ':', ';' or ','; DQUOTE and controls cannot appear. */
function paramValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed on purpose.
  const clean = value.replace(/["\u0000-\u001f\u007f]/g, '');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds a content line so that no physical line is longer than 75 octets (RFC 5545 3.1):
 * continuation lines start with one space; neither a UTF-8 sequence nor an escape is split.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_OCTETS;
  // A backslash and the character it escapes stay together: some readers unfold badly there.
  for (const char of line.match(/\\[\s\S]|[\s\S]/gu) ?? []) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_OCTETS - 1; // the leading space of a continuation line counts
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join(`${CRLF} `);
}

/** URIs, UIDs and addresses are not TEXT and are not escaped, but never break a line. */
const oneLine = (value: string) => value.replace(/[\r\n]/g, '');

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** 'YYYYMMDDTHHMMSS' of a Date read through its UTC fields. */
function basicDateTime(at: Date): string {
  return (
    `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}` +
    `T${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`
  );
}

/** The local wall-clock time `minutes` after midnight of `date`, as a floating 'Date'. */
function wallClock(date: string, minutes: number): Date {
  const match = ISO_DATE.exec(date);
  if (!match) throw new Error(`Not an ISO date: ${JSON.stringify(date)}`);
  const [, year, month, day] = match as unknown as [string, string, string, string];
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)) + minutes * MINUTE_MS);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const nameFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  style: 'longOffset' | 'short',
) {
  let format = cache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: style });
    cache.set(timeZone, format);
  }
  return format;
}

function zonePart(format: Intl.DateTimeFormat, at: number): string {
  return format.formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** The zone's offset from UTC in minutes at an instant ('GMT-05:00' → -300). */
function offsetAt(timeZone: string, at: number): number {
  const text = zonePart(formatter(offsetFormats, timeZone, 'longOffset'), at);
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text);
  if (!match) return 0; // plain 'GMT'
  const [, sign, hours, minutes] = match as unknown as [string, string, string, string];
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** The zone's abbreviation at an instant when it has a real one ('EST'), else undefined. */
function abbreviationAt(timeZone: string, at: number): string | undefined {
  const text = zonePart(formatter(nameFormats, timeZone, 'short'), at);
  return /^[A-Z]{2,5}$/.test(text) ? text : undefined;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}

interface Observance {
  /** UTC instant from which the offset applies. */
  from: number;
  offsetFrom: number;
  offsetTo: number;
  name: string | undefined;
}

/** Observances by zone and year: they never change while the process runs. */
const observanceCache = new Map<string, Observance[]>();

/**
 * The zone's offsets from the start of the year before `date` to the end of the year after it,
 * read from the runtime's time-zone database: one observance for the start of that window and
 * one for every change of offset inside it (found day by day, then to the minute). Finding them
 * takes about a thousand formatter calls (some 15 ms), so each zone and year is worked out once.
 */
function observances(timeZone: string, date: string): Observance[] {
  const year = Number(date.slice(0, 4));
  const key = `${timeZone}|${year}`;
  let list = observanceCache.get(key);
  if (!list) {
    list = findObservances(timeZone, year);
    observanceCache.set(key, list);
  }
  return list;
}

function findObservances(timeZone: string, year: number): Observance[] {
  // From local midnight of January 1st: an offset change at that very instant is not a case.
  const newYear = Date.UTC(year - 1, 0, 1);
  const start = newYear - offsetAt(timeZone, newYear) * MINUTE_MS;
  const end = Date.UTC(year + 2, 0, 1);
  const first = offsetAt(timeZone, start);
  const list: Observance[] = [
    { from: start, offsetFrom: first, offsetTo: first, name: abbreviationAt(timeZone, start) },
  ];
  let previous = first;
  for (let day = start + DAY_MS; day <= end; day += DAY_MS) {
    const offset = offsetAt(timeZone, day);
    if (offset === previous) continue;
    // The change happened in (day - 1 day, day]: find its first minute.
    let low = day - DAY_MS;
    let high = day;
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
      if (offsetAt(timeZone, middle) === previous) low = middle;
      else high = middle;
    }
    list.push({
      from: high,
      offsetFrom: previous,
      offsetTo: offset,
      name: abbreviationAt(timeZone, high),
    });
    previous = offset;
  }
  return list;
}

/**
 * The observances for every date from `first` to `last` ('YYYY-MM-DD'): those around the first
 * date's year, then each later change of offset up to the year after the last date's.
 */
function observancesBetween(timeZone: string, first: string, last: string): Observance[] {
  const list = [...observances(timeZone, first)];
  const lastYear = Number(last.slice(0, 4));
  for (let year = Number(first.slice(0, 4)) + 1; year <= lastYear; year += 1) {
    const latest = list[list.length - 1]?.from ?? 0;
    for (const observance of observances(timeZone, `${year}-01-01`)) {
      if (observance.from > latest && observance.offsetFrom !== observance.offsetTo) {
        list.push(observance);
      }
    }
  }
  return list;
}

function vtimezone(timeZone: string, date: string, lastDate = date): string[] {
  const list = observancesBetween(timeZone, date, lastDate);
  const standard = Math.min(...list.map((observance) => observance.offsetTo));
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  for (const observance of list) {
    const kind = observance.offsetTo > standard ? 'DAYLIGHT' : 'STANDARD';
    // An observance starts at its local time under the offset in force before it.
    const localStart = new Date(observance.from + observance.offsetFrom * MINUTE_MS);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${basicDateTime(localStart)}`,
      `TZOFFSETFROM:${formatOffset(observance.offsetFrom)}`,
      `TZOFFSETTO:${formatOffset(observance.offsetTo)}`,
      ...(observance.name ? [`TZNAME:${escapeText(observance.name)}`] : []),
      `END:${kind}`,
    );
  }
  lines.push('END:VTIMEZONE');
  return lines;
}

/** The VEVENT of an event, its lines unfolded. */
function eventLines(event: Omit<CalendarEvent, 'timeZone'> & { timeZone: string }): string[] {
  const method = event.method ?? 'PUBLISH';
  const start = wallClock(event.date, event.startMinutes);
  const endMinutes =
    event.endMinutes > event.startMinutes ? event.endMinutes : event.endMinutes + 24 * 60;
  const end = wallClock(event.date, endMinutes);
  const tzid = `TZID=${paramValue(event.timeZone)}`;
  return [
    'BEGIN:VEVENT',
    `UID:${oneLine(event.uid)}`,
    `DTSTAMP:${basicDateTime(event.stamp ?? new Date())}Z`,
    `DTSTART;${tzid}:${basicDateTime(start)}`,
    `DTEND;${tzid}:${basicDateTime(end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.url ? [`URL:${oneLine(event.url)}`] : []),
    ...(event.organizer
      ? [
          `ORGANIZER;CN=${paramValue(event.organizer.name)}:mailto:${oneLine(event.organizer.email)}`,
        ]
      : []),
    method === 'CANCEL' ? 'STATUS:CANCELLED' : 'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    `SEQUENCE:${event.sequence ?? (method === 'CANCEL' ? 1 : 0)}`,
    'END:VEVENT',
  ];
}

const PRODID = 'PRODID:-//Doctors Portal//Appointments//EN';

/** Content lines as the file holds them: each folded and CRLF-terminated. */
const contentOf = (lines: string[]) => lines.map((line) => `${foldLine(line)}${CRLF}`).join('');

/** A complete VCALENDAR with one VEVENT, CRLF-terminated lines, folded and escaped. */
export function buildCalendar(event: CalendarEvent): string {
  const method = event.method ?? 'PUBLISH';
  return contentOf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    PRODID,
    'CALSCALE:GREGORIAN',
    `METHOD:${method}`,
    ...vtimezone(event.timeZone, event.date),
    ...eventLines(event),
    'END:VCALENDAR',
  ]);
}

/** A calendar to subscribe to: its name, zone and events (see `buildFeed`). */
export interface CalendarFeed {
  /** What calendar apps call it (X-WR-CALNAME). */
  name: string;
  /** IANA time zone of every event. */
  timeZone: string;
  /** The first date the feed covers ('YYYY-MM-DD'); the VTIMEZONE spans it to the last event. */
  from: string;
  events: Array<Omit<CalendarEvent, 'timeZone' | 'method' | 'organizer'>>;
  /** How often apps should fetch it again, in minutes. */
  refreshMinutes?: number;
}

/**
 * A published calendar (METHOD:PUBLISH) of many events in one zone, for calendar apps that
 * subscribe to a URL: one VTIMEZONE covering every event's date (daylight saving included), then
 * one VEVENT each. A feed without events still holds its VTIMEZONE, as a VCALENDAR must hold
 * at least one component.
 */
export function buildFeed(feed: CalendarFeed): string {
  const last = [feed.from, ...feed.events.map((event) => event.date)].sort().at(-1) ?? feed.from;
  const refresh = feed.refreshMinutes ?? 15;
  return contentOf([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    PRODID,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(feed.name)}`,
    `X-WR-TIMEZONE:${oneLine(feed.timeZone)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:PT${refresh}M`,
    `X-PUBLISHED-TTL:PT${refresh}M`,
    ...vtimezone(feed.timeZone, feed.from, last),
    ...feed.events.flatMap((event) =>
      eventLines({ ...event, timeZone: feed.timeZone, method: 'PUBLISH' }),
    ),
    'END:VCALENDAR',
  ]);
}
