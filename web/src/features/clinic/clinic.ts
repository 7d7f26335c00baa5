import {
  type BookingRulesInput,
  bookingRulesSchema,
  type ClosureRequest,
  clinicCalendarErrors,
  closureRequestSchema,
  formatMediumDate,
  type IsoDate,
  parseIsoDate,
} from '@doctors-portal/contract';

/** The weekdays in the order the screen lists them, Monday first; 0 is Sunday. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** The inline errors of the closure form, by field. */
export type ClosureProblems = Partial<Record<'from' | 'to' | 'label', string>>;

/**
 * The closure form's values checked as the server checks them, on the clinic's `today`: the
 * request, or what is wrong.
 */
export function checkClosure(
  values: ClosureRequest,
  today: IsoDate,
): { ok: true; closure: ClosureRequest } | { ok: false; problems: ClosureProblems } {
  const parsed = closureRequestSchema.safeParse(values);
  if (parsed.success) {
    const { from, to, label } = parsed.data;
    if (to < today) return { ok: false, problems: { to: clinicCalendarErrors.closureOver } };
    return { ok: true, closure: { from, to, label } };
  }
  const problems: ClosureProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'from' || field === 'to' || field === 'label') && !problems[field]) {
      problems[field] = field === 'label' ? issue.message : dateMessage(issue.message);
    }
  }
  return { ok: false, problems };
}

/** The date inputs give ISO dates or nothing: an empty one is simply missing. */
function dateMessage(message: string): string {
  return message === 'Date is Required' || message.startsWith('Provide a real date')
    ? 'Pick a date.'
    : message;
}

/** 'Dec 25, 2031', or 'Dec 24, 2031 – Dec 26, 2031' for a range. */
export function describeRange(from: string, to: string): string {
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  if (!a || !b) return `${from} – ${to}`;
  return a === b
    ? formatMediumDate(a)
    : `${formatMediumDate(a)} – ${formatMediumDate(b as IsoDate)}`;
}

/** The rules form's fields, as typed. */
export type RulesValues = Record<keyof BookingRulesInput, string>;
export type RulesProblems = Partial<Record<keyof BookingRulesInput, string>>;

export const RULE_FIELDS: Array<{ name: keyof BookingRulesInput; label: string; hint: string }> = [
  {
    name: 'horizonDays',
    label: 'Booking horizon (days)',
    hint: 'How many days ahead patients may book.',
  },
  {
    name: 'minNoticeMinutes',
    label: 'Minimum notice (minutes)',
    hint: 'Slots starting sooner than this are not offered. 0 for none.',
  },
  {
    name: 'maxUnpaidBookings',
    label: 'Unpaid bookings per patient',
    hint: 'How many upcoming unpaid bookings a patient may hold.',
  },
  {
    name: 'cancellationNoticeHours',
    label: 'Cancellation notice (hours)',
    hint: 'Patients may cancel until this long before the visit. 0 for until it starts.',
  },
  {
    name: 'reminderLeadHours',
    label: 'Reminder lead time (hours)',
    hint: 'How long before the visit the reminder mail goes out.',
  },
];

export function rulesToValues(rules: BookingRulesInput): RulesValues {
  return Object.fromEntries(
    Object.entries(rules).map(([name, value]) => [name, String(value)]),
  ) as RulesValues;
}

/** The rules form's values as numbers, checked as the server checks them. */
export function checkRules(
  values: RulesValues,
): { ok: true; rules: BookingRulesInput } | { ok: false; problems: RulesProblems } {
  const numbers = Object.fromEntries(
    Object.entries(values).map(([name, text]) => [
      name,
      text.trim() === '' ? undefined : Number(text.trim()),
    ]),
  );
  const parsed = bookingRulesSchema.safeParse(numbers);
  if (parsed.success) return { ok: true, rules: parsed.data };
  const problems: RulesProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof BookingRulesInput;
    const rule = RULE_FIELDS.find((entry) => entry.name === field);
    if (rule && !problems[field]) {
      problems[field] =
        numbers[field] === undefined || Number.isNaN(numbers[field])
          ? `Enter ${rule.label.toLowerCase().replace(/ \(.*\)$/, '')} as a whole number.`
          : issue.message;
    }
  }
  return { ok: false, problems };
}

/**
 * What the rules as typed mean for the reminder's Cancel link: a reminder that goes out no earlier
 * than the cancellation notice closes reaches patients who can no longer cancel online (they can
 * still move the visit from it, or call). Null when the reminder comes first, or a value is not a
 * number yet.
 */
export function reminderAfterNotice(values: RulesValues): string | null {
  const lead = Number(values.reminderLeadHours);
  const notice = Number(values.cancellationNoticeHours);
  if (values.reminderLeadHours.trim() === '' || values.cancellationNoticeHours.trim() === '') {
    return null;
  }
  if (!Number.isFinite(lead) || !Number.isFinite(notice) || notice === 0 || lead > notice) {
    return null;
  }
  return (
    'Reminders go out once online cancellation has closed: patients can move a visit from the ' +
    'reminder, but must call to cancel it. A lead time longer than the cancellation notice lets ' +
    'them cancel from the reminder.'
  );
}
