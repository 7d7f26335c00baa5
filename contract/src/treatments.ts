import { z } from 'zod';
import { slotListIssue } from './slots.js';
import { isPlainLine, isPlainText, showsSomething } from './validation.js';

/**
 * The clinic's treatments as its administrators edit them (`/dashboard/treatments`,
 * `GET/POST /api/treatments`, `PATCH /api/treatments/{id}`): a name, a description, a price in
 * dollars and the slot times offered each day. A retired treatment is no longer offered; the
 * bookings made for it keep the name and price they were booked with.
 */

export const TREATMENT_NAME_MAX_LENGTH = 100;
export const TREATMENT_DESCRIPTION_MAX_LENGTH = 1000;
/** The highest price a treatment may have, in dollars. */
export const TREATMENT_PRICE_MAX = 100_000;

export const treatmentErrors = {
  nameRequired: 'Name is required.',
  nameTooLong: `Name must be at most ${TREATMENT_NAME_MAX_LENGTH} characters.`,
  nameCharacters: 'Name must not contain line breaks, control or text-direction characters.',
  descriptionTooLong: `Description must be at most ${TREATMENT_DESCRIPTION_MAX_LENGTH} characters.`,
  descriptionCharacters: 'Description must not contain control or text-direction characters.',
  priceRequired: 'Price is required.',
  priceNotNumber: 'Price must be a number of dollars, such as 80 or 89.50.',
  pricePositive: 'Price must be more than $0.',
  priceTooHigh: `Price must be at most $${TREATMENT_PRICE_MAX.toLocaleString('en-US')}.`,
  priceCents: 'Price can have at most 2 decimals (cents).',
  nothingToChange: 'Send at least one of name, description, price, slots or retired.',
  noSuchTreatment: 'There is no such treatment.',
  duplicateName: (name: string) => `A treatment named “${name}” already exists.`,
  retiredName: (name: string) =>
    `A retired treatment is named “${name}”: bring it back, or choose another name.`,
  slotsHeld: (count: number) =>
    `${count === 1 ? 'A booking still holds' : `${count} bookings still hold`} a slot time this change removes. ` +
    'Keep those slot times, or cancel or move the bookings first.',
} as const;

/** Whether a number of dollars has at most two decimals (allowing for binary fractions). */
function wholeCents(dollars: number): boolean {
  return Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;
}

/**
 * A name in the one spelling the catalogue compares: composed (NFC), each run of spaces of any
 * kind one plain space, no zero-width space or word joiner. 'Night Cafe\u0301', 'Night\u00a0Café'
 * and 'Night  Café' are then the 'Night Café' they show as, and a second one is refused.
 */
const tidyName = (name: string) =>
  name
    .normalize('NFC')
    .replace(/[\u200b\u2060\ufeff]/g, '')
    .replace(/\p{Zs}+/gu, ' ');

const nameField = z
  .string({ error: treatmentErrors.nameRequired })
  .overwrite(tidyName)
  .trim()
  .min(1, treatmentErrors.nameRequired)
  .max(TREATMENT_NAME_MAX_LENGTH, treatmentErrors.nameTooLong)
  .refine(isPlainLine, treatmentErrors.nameCharacters)
  .refine(showsSomething, treatmentErrors.nameRequired);

const descriptionField = z
  .string({ error: 'Description must be text.' })
  .trim()
  .max(TREATMENT_DESCRIPTION_MAX_LENGTH, treatmentErrors.descriptionTooLong)
  .refine(isPlainText, treatmentErrors.descriptionCharacters);

/** A price in dollars: more than 0, at most TREATMENT_PRICE_MAX, in whole cents. */
export const treatmentPriceField = z
  .number({
    error: (issue) =>
      issue.input === undefined ? treatmentErrors.priceRequired : treatmentErrors.priceNotNumber,
  })
  .positive(treatmentErrors.pricePositive)
  .max(TREATMENT_PRICE_MAX, treatmentErrors.priceTooHigh)
  .refine(wholeCents, treatmentErrors.priceCents)
  // A positive amount below half a cent is $0 in cents.
  .refine((dollars) => Math.round(dollars * 100) >= 1, treatmentErrors.pricePositive);

/** The slot labels of a treatment, e.g. '9:00 AM - 9:30 AM', from the earliest (`slotListIssue`). */
export const treatmentSlotsField = z
  .array(z.string({ error: 'Each slot time must be text.' }).trim().max(40), {
    error: 'Slots must be a list of slot times.',
  })
  .superRefine((slots, context) => {
    const issue = slotListIssue(slots);
    if (issue) context.addIssue({ code: 'custom', message: issue });
  });

/** `POST /api/treatments`: a new treatment. */
export const newTreatmentSchema = z.object({
  name: nameField,
  description: descriptionField.default(''),
  price: treatmentPriceField,
  slots: treatmentSlotsField,
});
export type NewTreatment = z.input<typeof newTreatmentSchema>;

/**
 * `PATCH /api/treatments/{id}`: any of a treatment's fields; `retired: true` retires it and
 * `retired: false` offers it again.
 */
export const treatmentChangeSchema = z
  .object({
    name: nameField.optional(),
    description: descriptionField.optional(),
    price: treatmentPriceField.optional(),
    slots: treatmentSlotsField.optional(),
    retired: z.boolean({ error: 'retired must be true or false.' }).optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: treatmentErrors.nothingToChange,
  });
export type TreatmentChange = z.input<typeof treatmentChangeSchema>;

/** A treatment as the clinic's administrators see it. */
export const treatmentSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  /** In dollars. */
  price: z.number(),
  /** Slot labels from the earliest, e.g. '9:00 AM - 9:30 AM'. */
  slots: z.array(z.string()),
  retired: z.boolean(),
  /** When it was retired (ISO time); null while offered. */
  retiredAt: z.string().nullable(),
  /** Its place in the lists patients see, from 1. */
  sortOrder: z.number().int(),
});
export type Treatment = z.infer<typeof treatmentSchema>;

/** A future booking that holds a slot time a change would remove. */
export const heldSlotSchema = z.object({
  _id: z.string(),
  /** 'YYYY-MM-DD', in the clinic's time zone. */
  date: z.string(),
  slot: z.string(),
  patientName: z.string(),
});
export type HeldSlot = z.infer<typeof heldSlotSchema>;

/** The 409 of a change that would remove slot times future bookings hold: those bookings. */
export const slotsHeldSchema = z.object({
  statusCode: z.literal(409),
  error: z.string(),
  message: z.string(),
  reason: z.literal('slots-held'),
  bookings: z.array(heldSlotSchema),
});
export type SlotsHeld = z.infer<typeof slotsHeldSchema>;
