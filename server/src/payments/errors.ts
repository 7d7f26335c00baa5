import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, handleError } from '../http/errors.js';
import { PaymentProviderError } from './provider.js';

/** The answers about payments a patient can act on; the spec leaves these situations unworded. */
export const paymentErrors = {
  noSuchBooking: 'There is no such booking.',
  notYourBookingToPay: 'You can only pay for your own appointments.',
  alreadyPaid: 'This booking is already paid.',
  priceMismatch: 'The price does not match this booking.',
  appointmentMismatch: 'appointmentId must be the id of the booking in the address.',
  noSuchPayment: 'The payment provider has no such payment, so the booking stays unpaid.',
  otherBooking: 'That payment is for another booking, so this booking stays unpaid.',
  notSucceeded: 'That payment has not succeeded, so the booking stays unpaid.',
  otherAmount: 'That payment is not for the price of this booking, so the booking stays unpaid.',
  providerUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  unverified:
    'Please verify your email address first: follow the link we sent you, or ask for a new one.',
  bookingCancelled: 'This booking was cancelled, so it cannot be paid.',
  refundedCancelled:
    'This booking was cancelled before your payment arrived, so the payment has been refunded in full.',
} as const;

/**
 * The error handler of the routes that call the card gateway: the gateway failing is not the
 * portal's failure, so it answers 502 saying so, and that trying again may help. Anything else
 * goes to the portal's own handler.
 */
export function answerPaymentFailure(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (!(error instanceof PaymentProviderError)) return handleError(error, request, reply);
  request.log.error({ err: error }, 'the payment provider failed');
  return reply.code(502).send(errorBody(502, paymentErrors.providerUnavailable));
}
