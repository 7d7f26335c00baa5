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
