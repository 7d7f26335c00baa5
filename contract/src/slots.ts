/**
 * A slot is labelled by its start and end time in the clinic's time zone,
 * always as 'h:mm AM - h:mm PM' (e.g. '10:00 AM - 10:30 AM').
 */
const SLOT = /^(1[0-2]|[1-9]):([0-5]\d) (AM|PM) - (1[0-2]|[1-9]):([0-5]\d) (AM|PM)$/;

function toMinutes(hour: string, minute: string, half: string): number {
  return ((Number(hour) % 12) + (half === 'PM' ? 12 : 0)) * 60 + Number(minute);
}

function formatMinutes(total: number): string {
  const hour24 = Math.floor(total / 60);
  const minute = String(total % 60).padStart(2, '0');
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return `${hour12}:${minute} ${hour24 < 12 ? 'AM' : 'PM'}`;
}

/** Minutes after midnight at which the slot starts; null for a label not in the slot format. */
export function slotStartMinutes(label: string): number | null {
  const match = SLOT.exec(label);
  if (!match) return null;
  const [, hour, minute, half] = match as unknown as [string, string, string, string];
  return toMinutes(hour, minute, half);
}

/** Minutes after midnight at which the slot ends; null for a label not in the slot format. */
export function slotEndMinutes(label: string): number | null {
  const match = SLOT.exec(label);
  if (!match) return null;
  const [, , , , hour, minute, half] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return toMinutes(hour, minute, half);
}

/** Consecutive slots of `length` minutes from `start` until `end` ('10:00 AM', '1:00 PM'). */
export function slotsBetween(start: string, end: string, length: number): string[] {
  const from = slotStartMinutes(`${start} - ${start}`);
  const until = slotStartMinutes(`${end} - ${end}`);
  if (from === null || until === null) throw new Error(`Bad slot bounds ${start}, ${end}`);
  const slots: string[] = [];
  for (let at = from; at + length <= until; at += length) {
    slots.push(`${formatMinutes(at)} - ${formatMinutes(at + length)}`);
  }
  return slots;
}

/** The length of the time units bookings are held in (see `slotUnits`). */
export const TIME_UNIT_MINUTES = 5;

/**
 * The time units of the day a slot covers, numbered from midnight: from the unit its start is in
 * to the one holding its last minute. Two slots overlap exactly when their units do, so a unique
 * index over (person, date, unit) keeps a person in one place at a time. Empty for a label that
 * is not a slot.
 */
export function slotUnits(label: string): number[] {
  const start = slotStartMinutes(label);
  const end = slotEndMinutes(label);
  if (start === null || end === null || end <= start) return [];
  const units: number[] = [];
  for (let unit = Math.floor(start / TIME_UNIT_MINUTES); unit * TIME_UNIT_MINUTES < end; unit++) {
    units.push(unit);
  }
  return units;
}

/** '9:00 AM - 9:30 AM' for the minutes after midnight of its start and end. */
export function slotLabel(start: number, end: number): string {
  return `${formatMinutes(start)} - ${formatMinutes(end)}`;
}

/** Minutes after midnight of a 24-hour time of a time input ('09:30'); null for anything else. */
export function clockMinutes(time: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The shortest and longest slot a treatment may offer, in minutes. */
export const SLOT_MIN_MINUTES = 5;
export const SLOT_MAX_MINUTES = 8 * 60;
/** The most slots one treatment offers a day. */
export const MAX_SLOTS = 96;

export const slotErrors = {
  none: 'Add at least one slot time.',
  tooMany: `A treatment offers at most ${MAX_SLOTS} slots a day.`,
  format: (label: string) =>
    `“${label}” is not a slot time: write it like 9:00 AM - 9:30 AM (start - end).`,
  endBeforeStart: (label: string) => `“${label}” ends before it starts.`,
  length: (label: string) =>
    `“${label}” must last from ${SLOT_MIN_MINUTES} minutes to ${SLOT_MAX_MINUTES / 60} hours.`,
  marks: (label: string) =>
    `“${label}” must start and end on a ${TIME_UNIT_MINUTES}-minute mark (like 9:05 AM).`,
  duplicate: (label: string) => `“${label}” is listed twice.`,
  order: (label: string) => `“${label}” is out of order: list the slots from the earliest.`,
  overlap: (first: string, second: string) => `“${first}” and “${second}” overlap.`,
  generatorTimes: 'Enter a start and an end time.',
  generatorEnd: 'The end must be after the start.',
  generatorLength: `The length must be a whole number of minutes from ${SLOT_MIN_MINUTES} to ${SLOT_MAX_MINUTES}.`,
  generatorMarks: `The start, end and length must be on ${TIME_UNIT_MINUTES}-minute marks (9:05, 25 minutes).`,
  generatorFits: 'No slot of that length fits between the start and the end.',
} as const;

/** Whether minutes fall on a time unit's mark (slotUnits holds a slot in whole units). */
const onMark = (minutes: number) => minutes % TIME_UNIT_MINUTES === 0;

/**
 * What is wrong with a treatment's list of slot labels, or null when nothing is: every label in
 * the slot format, ending after it starts, from 5 minutes to 8 hours long, on the time units'
 * marks (else two back-to-back slots would share a unit and clash), listed from the earliest,
 * none twice and none overlapping the next.
 */
export function slotListIssue(slots: readonly string[]): string | null {
  if (slots.length === 0) return slotErrors.none;
  if (slots.length > MAX_SLOTS) return slotErrors.tooMany;
  let previous: { label: string; start: number; end: number } | null = null;
  for (const label of slots) {
    const start = slotStartMinutes(label);
    const end = slotEndMinutes(label);
    if (start === null || end === null) return slotErrors.format(label);
    if (end <= start) return slotErrors.endBeforeStart(label);
    if (end - start < SLOT_MIN_MINUTES || end - start > SLOT_MAX_MINUTES) {
      return slotErrors.length(label);
    }
    if (!onMark(start) || !onMark(end)) return slotErrors.marks(label);
    if (previous) {
      if (previous.label === label) return slotErrors.duplicate(label);
      if (start < previous.start) return slotErrors.order(label);
      if (start < previous.end) return slotErrors.overlap(previous.label, label);
    }
    previous = { label, start, end };
  }
  return null;
}

/** The same slot labels listed from the earliest start (ties by the earliest end). */
export function sortSlots(slots: readonly string[]): string[] {
  const key = (label: string) => [slotStartMinutes(label) ?? -1, slotEndMinutes(label) ?? -1];
  return [...slots].sort((a, b) => {
    const [aStart = 0, aEnd = 0] = key(a);
    const [bStart = 0, bEnd = 0] = key(b);
    return aStart - bStart || aEnd - bEnd;
  });
}

/**
 * Consecutive slots of `length` minutes from `start` until `end`, both 24-hour times of a time
 * input ('09:00', '17:30'): the slot form's generator. The last slot ends by `end`.
 */
export function generateSlots(
  start: string,
  end: string,
  length: number,
): { slots: string[] } | { error: string } {
  const from = clockMinutes(start);
  const until = clockMinutes(end);
  if (from === null || until === null) return { error: slotErrors.generatorTimes };
  if (until <= from) return { error: slotErrors.generatorEnd };
  if (!Number.isInteger(length) || length < SLOT_MIN_MINUTES || length > SLOT_MAX_MINUTES) {
    return { error: slotErrors.generatorLength };
  }
  if (!onMark(from) || !onMark(length)) return { error: slotErrors.generatorMarks };
  const slots: string[] = [];
  for (let at = from; at + length <= until && slots.length < MAX_SLOTS; at += length) {
    slots.push(slotLabel(at, at + length));
  }
  return slots.length ? { slots } : { error: slotErrors.generatorFits };
}
