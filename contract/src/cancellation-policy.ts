/**
 * The clinic's cancellation policy in the patient's words: the same sentences in the booking
 * modal, on the payment page and in the mails, so that what the portal promises is said once.
 */
export function cancellationPolicy(noticeHours: number, clinicPhone: string): string {
  if (noticeHours === 0) {
    return 'You can cancel free of charge until your visit starts; a paid visit is refunded to your card.';
  }
  const notice = `${noticeHours} ${noticeHours === 1 ? 'hour' : 'hours'}`;
  return (
    `You can cancel free of charge until ${notice} before your visit; a paid visit cancelled by ` +
    `then is refunded to your card. After that, please call the clinic on ${clinicPhone}.`
  );
}

/**
 * Said after the policy of a visit already past it: booked inside the notice, or moved inside it.
 * The policy's own last sentence gives the number to call.
 */
export const CANCELLATION_CLOSED = 'This visit can no longer be cancelled online.';
