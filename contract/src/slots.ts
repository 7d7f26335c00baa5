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
