import {
  generateSlots,
  type NewTreatment,
  newTreatmentSchema,
  OPENING_MINUTES,
  slotEndMinutes,
  slotStartMinutes,
  sortSlots,
  type Treatment,
  type TreatmentChange,
  treatmentErrors,
} from '@doctors-portal/contract';

/**
 * The treatment form's logic, apart from its screen: the text a person types, read into what
 * `POST /api/treatments` and `PATCH /api/treatments/{id}` take, with a message per field.
 */

/** What the form's fields hold: the price as typed, the slot times one a line. */
export interface TreatmentFormValues {
  name: string;
  description: string;
  price: string;
  slots: string;
}

export type TreatmentFormErrors = Partial<Record<keyof TreatmentFormValues, string>>;

export const EMPTY_TREATMENT_FORM: TreatmentFormValues = {
  name: '',
  description: '',
  price: '',
  slots: '',
};

/** A price as the form shows it: '80', '89.50'. */
export function priceText(dollars: number): string {
  return Number.isInteger(dollars) ? String(dollars) : dollars.toFixed(2);
}

/** The form filled with a treatment, to edit it. */
export function formValuesOf(treatment: Treatment): TreatmentFormValues {
  return {
    name: treatment.name,
    description: treatment.description,
    price: priceText(treatment.price),
    slots: treatment.slots.join('\n'),
  };
}

/**
 * A typed price in dollars ('80', '$89.50', '1,200'), or the message saying what is wrong with
 * it. Checked again by the contract's rule (more than 0, at most the maximum, whole cents).
 */
export function parsePrice(text: string): number | { error: string } {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!plain) return { error: treatmentErrors.priceRequired };
  if (/^\d*\.\d{3,}$/.test(plain)) return { error: treatmentErrors.priceCents };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(plain)) return { error: treatmentErrors.priceNotNumber };
  return Number(plain);
}

/** The slot times of the text field: one a line, blank lines left out, from the earliest. */
export function slotLines(text: string): string[] {
  return sortSlots(
    text
      .split(/\r?\n/)
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter(Boolean),
  );
}

/**
 * The slot times typed that fall outside the opening hours the portal states (OPENING_HOURS),
 * from the earliest: they stay bookable (a clinic may see patients early), but the pages say
 * otherwise, so the form notes them.
 */
export function slotsOutsideHours(text: string): string[] {
  return slotLines(text).filter((slot) => {
    const [start, end] = [slotStartMinutes(slot), slotEndMinutes(slot)];
    return (
      start !== null &&
      end !== null &&
      (start < OPENING_MINUTES.from || end > OPENING_MINUTES.until || end < start)
    );
  });
}

/**
 * The generated slots added to those already listed (none twice), from the earliest; or why
 * nothing was generated. `length` is the minutes as typed.
 */
export function addGeneratedSlots(
  current: string,
  start: string,
  end: string,
  length: string,
): { slots: string } | { error: string } {
  const minutes = /^\s*\d+\s*$/.test(length) ? Number(length) : Number.NaN;
  const generated = generateSlots(start, end, minutes);
  if ('error' in generated) return generated;
  const all = [...new Set([...slotLines(current), ...generated.slots])];
  return { slots: sortSlots(all).join('\n') };
}

/** The form read into a new treatment, or a message for each field that is wrong. */
export function readTreatmentForm(
  values: TreatmentFormValues,
): { treatment: Required<NewTreatment> } | { errors: TreatmentFormErrors } {
  const errors: TreatmentFormErrors = {};
  const price = parsePrice(values.price);
  if (typeof price !== 'number') errors.price = price.error;
  const parsed = newTreatmentSchema.safeParse({
    name: values.name,
    description: values.description,
    price: typeof price === 'number' ? price : 1,
    slots: slotLines(values.slots),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === 'name' || field === 'description' || field === 'price' || field === 'slots') {
        errors[field] ??= issue.message;
      }
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { errors };
  return { treatment: parsed.data };
}

/** What an edit changes of `original`: only the fields that differ (nothing: an empty object). */
export function changesOf(original: Treatment, edited: Required<NewTreatment>): TreatmentChange {
  const change: TreatmentChange = {};
  if (edited.name !== original.name) change.name = edited.name;
  if (edited.description !== original.description) change.description = edited.description;
  if (edited.price !== original.price) change.price = edited.price;
  if (edited.slots.join('\n') !== original.slots.join('\n')) change.slots = edited.slots;
  return change;
}

/** '8 slots, 10:00 AM to 8:00 PM' for a table cell. */
export function slotSummary(slots: readonly string[]): string {
  if (slots.length === 0) return 'No slots';
  const first = slots[0]?.split(' - ')[0];
  const last = slots.at(-1)?.split(' - ')[1];
  return `${slots.length} slot${slots.length === 1 ? '' : 's'}, ${first} to ${last}`;
}
