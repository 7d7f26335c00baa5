import { visitLinkMessages } from '@doctors-portal/contract';

/** The answers about bookings a patient can act on; the spec leaves these situations unworded. */
export const bookingErrors = {
  pastDate: 'You cannot book a date in the past',
  unverified:
    'Please verify your email address first: follow the link we sent you, or ask for a new one.',
  beyondHorizon: (days: number, lastMediumDate: string) =>
    `Appointments can be booked up to ${days} days ahead: please pick a date on or before ${lastMediumDate}.`,
  tooManyUnpaid: (count: number) =>
    `You already have ${count} upcoming appointments that are not paid yet. Please pay for or cancel one of them before booking another.`,
  overlap: (treatment: string, mediumDate: string, slot: string) =>
    `That time overlaps your ${treatment} appointment On: ${mediumDate} At ${slot}. Please pick another time.`,
  unknownDoctor:
    'There is no such doctor. Please pick one from the list, or any available dentist.',
  doctorNotQualified: (doctor: string, treatment: string) =>
    `${doctor} does not perform ${treatment}. Please pick another dentist, or any available dentist.`,
  doctorNotWorking: (doctor: string, mediumDate: string) =>
    `${doctor} is not at the clinic on ${mediumDate}. Please pick another day or dentist, or any available dentist.`,
  noDentistThatDay: (treatment: string, mediumDate: string) =>
    `No dentist who performs ${treatment} is at the clinic on ${mediumDate}. Please pick another day.`,
  doctorBusy: (doctor: string, slot: string) =>
    `${doctor} is not free at ${slot}. Please pick another time or dentist, or any available dentist.`,
  unknownTreatment: 'We do not offer that treatment. Please pick one from the list.',
  slotNotOffered: 'That slot is not offered for this treatment',
  slotStarted: 'That slot has already started today. Please pick a later one.',
  slotSkipped: (mediumDate: string) =>
    `The clocks go forward on the night of ${mediumDate}, so that time does not exist that day. Please pick another time.`,
  notYourMail: 'You can only see your own appointments.',
  notYourBookingToSee: 'You can only see your own appointments.',
  noSuchBooking: 'There is no such booking.',
  alreadyCancelled: visitLinkMessages.cancelled,
  cancelledHasNoEvent: 'This appointment is cancelled, so there is no calendar event to add.',
  notYourBooking: 'You can only cancel your own appointments.',
  paymentProcessing:
    'Your payment for this appointment is being processed, so it cannot be cancelled now. Please try again in a few minutes or call the clinic.',
  started: 'This appointment has already started or passed, so it can no longer be cancelled.',
  notYourBookingToMove: 'You can only move your own appointments.',
  notMovable:
    'This appointment has already started, passed or been cancelled, so it can no longer be moved.',
  nothingToChange:
    'Your appointment is already at that date and time: nothing to change. Please pick another slot.',
} as const;

/**
 * Why a patient's cancellation in time did not go through, with the clinic's phone where the
 * patient has to call (the shape `cancelWithRefund` asks for).
 */
export const patientCancelRefusals = (phone: string) =>
  ({
    noSuchBooking: bookingErrors.noSuchBooking,
    paymentProcessing: bookingErrors.paymentProcessing,
    noPaymentToRefund: `Your payment for this appointment cannot be found with the payment provider, so it cannot be refunded online. The appointment stays booked and paid: please call the clinic on ${phone}.`,
    refundRefused: (why: string) =>
      `The payment provider refused to refund your payment, so the appointment stays booked and paid. Please call the clinic on ${phone}. The provider said: ${why}`,
    changedMeanwhile:
      'This appointment changed while it was being cancelled, so it stays as it now is. Please reload My Appointments and try again.',
    changedAfterRefund: (refundId: string) =>
      `This appointment changed while it was being cancelled, so it stays as it now is; your payment was refunded (refund id ${refundId}). Please call the clinic on ${phone}.`,
  }) as const;
