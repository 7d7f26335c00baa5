/**
 * The contract's schemas that the availability call needs, in a module of their own: it is
 * imported on demand (availability.ts), so zod loads with the first availability request
 * and stays out of the landing page's first JavaScript (scripts/check-bundle.mjs).
 */
export {
  availableMonthSchema,
  availableTreatmentSchema,
  mediumDateField,
} from '@doctors-portal/contract';
