/** The query keys of the clinic's screen (the calendar's own are in api/clinic-calendar.ts). */
export const clinicKeys = {
  closures: ['closures'] as const,
  rules: ['clinic-rules'] as const,
};
