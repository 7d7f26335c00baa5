/**
 * What the waitlist says, in a module without schemas: the booking page's cards show these,
 * and importing them keeps zod out of the landing page's first JavaScript.
 */
export const waitlistMessages = {
  joined: (treatment: string, mediumDate: string) =>
    `You are on the waitlist for ${treatment} on ${mediumDate}. We will email you when a slot frees up.`,
  slotFree: 'This treatment still has a free slot on that day: book it instead.',
  alreadyWaiting: 'You are already on the waitlist for this treatment on that day.',
  alreadyBooked: 'You already hold this treatment on that day.',
  tooMany: (count: number) =>
    `You are on ${count} waitlists already. Please leave one before joining another.`,
  noSuchEntry: 'No such waitlist entry.',
  notYours: 'This waitlist entry is not yours.',
  /** Shown when a waitlist mail's slot was booked by someone told before. */
  slotTaken: 'This slot has just been taken',
} as const;
