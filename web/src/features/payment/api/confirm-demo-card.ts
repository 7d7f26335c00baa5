import { type DemoConfirmResult, demoConfirmResultSchema } from '@doctors-portal/contract';
import { useMutation } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';

export interface BillingDetails {
  name: string;
  email: string;
}

export interface DemoCard {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
  postalCode: string;
}

export interface DemoCardPayment {
  clientSecret: string;
  card: DemoCard;
  billing: BillingDetails;
}

/**
 * `POST /api/demo-gateway/confirm`: the demo gateway confirms the card payment as Stripe.js's
 * confirmCardPayment would; a declined card is an answer too (200 either way).
 */
export async function confirmDemoCard({
  clientSecret,
  card,
  billing,
}: DemoCardPayment): Promise<DemoConfirmResult> {
  const answer = await api<unknown>('/demo-gateway/confirm', {
    method: 'POST',
    body: { clientSecret, card: { ...card }, billingDetails: { ...billing } },
  });
  return decodeAnswer(demoConfirmResultSchema, answer);
}

/** Pays with a card at the demo gateway; nothing cached changes until the payment is recorded. */
export function useConfirmDemoCard() {
  return useMutation({ mutationFn: confirmDemoCard });
}
