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
 * In place of the policy, for a visit past it: booked inside the notice, or moved inside it. The
 * policy's promise no longer holds for it, and the server refuses its cancellation online.
 */
export function cancellationClosed(clinicPhone: string): string {
  return `This visit can no longer be cancelled free of charge online. To cancel it, please call the clinic on ${clinicPhone}.`;
}
