import { type Booking, bookingSchema } from '@doctors-portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { bookingKeys } from '../../../api/booking-keys';
import { api, decodeAnswer } from '../../../lib/api-client';
import { paymentKeys } from './keys';

export interface PaymentRecorded {
  modifiedCount: 0 | 1;
  /** The booking as it now is: paid, with its transaction id. */
  booking: Booking;
}

/**
 * `PATCH /api/booking/{id}`: the server checks the payment with the provider, then marks the
 * booking paid (spec: appointmentId and transactionId).
 */
export async function confirmPayment({
  bookingId,
  transactionId,
}: {
  bookingId: string;
  transactionId: string;
}): Promise<PaymentRecorded> {
  const answer = await api<{ modifiedCount: 0 | 1; booking: unknown }>(
    `/booking/${encodeURIComponent(bookingId)}`,
    { method: 'PATCH', body: { appointmentId: bookingId, transactionId } },
  );
  return {
    modifiedCount: answer.modifiedCount,
    booking: decodeAnswer(bookingSchema, answer.booking),
  };
}

/**
 * Records a card payment. The payment page and My Appointments show the paid booking at once
 * (no stale 'Plz Pay' while the list refetches), and the list is read again.
 */
export function useConfirmPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmPayment,
    onSuccess: ({ booking }) => {
      queryClient.setQueryData(paymentKeys.booking(booking._id), booking);
      queryClient.setQueriesData<Booking[]>({ queryKey: bookingKeys.bookings }, (list) =>
        list?.map((item) => (item._id === booking._id ? booking : item)),
      );
      void queryClient.invalidateQueries({ queryKey: bookingKeys.bookings });
    },
  });
}
