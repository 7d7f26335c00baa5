import { demoConfirmResultSchema } from '@doctors-portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import DemoCardForm from './demo-card-form';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
  signIn(api, null);
});

function showForm() {
  const onPaid = vi.fn();
  const view = renderInPortal(
    <DemoCardForm
      clientSecret="pi_1_secret_1"
      billing={{ name: 'Maya Cohen', email: 'maya@mail.com' }}
      onPaid={onPaid}
      amountId="amount"
    />,
  );
  return { ...view, onPaid, number: screen.getByLabelText('Card number') };
}

describe('the demo card form', () => {
  it('groups the card number in fours as it is typed', async () => {
    const { user, number } = showForm();
    await user.type(number, '4242424242424242');
    expect(number).toHaveValue('4242 4242 4242 4242');
  });

  it('groups an American Express number 4-6-5', async () => {
    const { user, number } = showForm();
    await user.type(number, '378282246310005');
    expect(number).toHaveValue('3782 822463 10005');
  });

  it('takes no more than 19 digits', async () => {
    const { user, number } = showForm();
    await user.type(number, '12345678901234567890123');
    expect(number).toHaveValue('1234 5678 9012 3456 789');
  });

  it('deletes the digit before a separator when the separator is deleted', async () => {
    const { user, number } = showForm();
    await user.type(number, '42424242');
    await user.type(number, '{Backspace}', { initialSelectionStart: 5, initialSelectionEnd: 5 });
    expect(number).toHaveValue('4244 242');
  });

  it("shows the expiry as 'MM / YY'", async () => {
    const { user } = showForm();
    const expiry = screen.getByLabelText('Expiry (MM / YY)');
    await user.type(expiry, '1234');
    expect(expiry).toHaveValue('12 / 34');
  });

  it('sends the digits alone to the gateway, with the billing details, and reports the payment', async () => {
    api.on('POST /api/demo-gateway/confirm', {
      body: demoConfirmResultSchema.encode({
        paymentIntent: { id: 'pi_1', status: 'succeeded' },
      }),
    });
    const { user, number, onPaid } = showForm();
    await user.type(number, '4242424242424242');
    await user.type(screen.getByLabelText('Expiry (MM / YY)'), '1234');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.type(screen.getByLabelText('Postcode'), '10001');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('pi_1'));
    expect(api.callsTo('POST /api/demo-gateway/confirm')[0]?.body).toEqual({
      clientSecret: 'pi_1_secret_1',
      card: {
        number: '4242424242424242',
        expMonth: 12,
        expYear: 34,
        cvc: '123',
        postalCode: '10001',
      },
      billingDetails: { name: 'Maya Cohen', email: 'maya@mail.com' },
    });
  });

  it("shows the gateway's message for a declined card", async () => {
    api.on('POST /api/demo-gateway/confirm', {
      body: {
        error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      },
    });
    const { user, number, onPaid } = showForm();
    await user.click(screen.getByRole('button', { name: 'Use test card 4000 0000 0000 0002' }));
    expect(number).toHaveValue('4000 0000 0000 0002');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card was declined.');
    expect(onPaid).not.toHaveBeenCalled();
    // The card is what to change: the focus is on it, not lost with the disabled Pay button.
    expect(number).toHaveFocus();
  });

  it('clears a card number error once the number is edited', async () => {
    api.on('POST /api/demo-gateway/confirm', {
      body: {
        error: {
          type: 'card_error',
          code: 'incorrect_number',
          message: 'Your card number is incorrect.',
        },
      },
    });
    const { user, number } = showForm();
    await user.type(number, '4242424242424241');
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your card number is incorrect.');
    expect(number).toHaveAttribute('aria-invalid', 'true');
    expect(number).toHaveFocus();
    await user.type(number, '{Backspace}2');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(number).not.toHaveAttribute('aria-invalid');
  });
});
