import { type PaymentConfig, paymentConfigSchema } from '@doctors-portal/contract';
import { queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/query-client';
import { paymentKeys } from './keys';

/** `GET /api/payment-config` (public): the demo gateway, or Stripe with its publishable key. */
export async function getPaymentConfig(signal?: AbortSignal): Promise<PaymentConfig> {
  const answer = await api<unknown>('/payment-config', { signal, anonymous: true });
  return decodeAnswer(paymentConfigSchema, answer);
}

export const paymentConfigQuery = queryOptions({
  queryKey: paymentKeys.config,
  queryFn: ({ signal }) => getPaymentConfig(signal),
  staleTime: Number.POSITIVE_INFINITY,
  retry: retryUnlessRefused,
});
