import { demoConfirmResultSchema, messages } from '@doctors-portal/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { booking, onTheWire, patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { PaymentPage } from './payment-page';

const unpaid = booking({ _id: 'b-7' });

let api: ApiStub;
beforeEach(() => {
  api = stubApi({
    'GET /api/booking/:id': { body: onTheWire(unpaid) },
    'GET /api/payment-config': { body: { provider: 'demo' } },
    'POST /api/create-payment-intent': { body: { clientSecret: 'pi_7_secret_7' } },
    'POST /api/demo-gateway/confirm': {
      body: demoConfirmResultSchema.encode({
        paymentIntent: { id: 'pi_7', status: 'succeeded' },
      }),
    },
    'PATCH /api/booking/:id': {
      body: {
        modifiedCount: 1,
        booking: onTheWire({ ...unpaid, paid: true, transactionId: 'pi_7' }),
      },
    },
  });
  signIn(api, patient);
});

/**
 * Opens the payment page, fills in the 4242 test card and pays once Pay is enabled; `meanwhile`
 * runs once the page is open.
 */
async function payWithTestCard(meanwhile = () => {}) {
  const { user } = renderInPortal(<PaymentPage bookingId="b-7" />);
  act(meanwhile);
  await user.click(
    await screen.findByRole('button', { name: 'Use test card 4242 4242 4242 4242' }),
  );
  const pay = screen.getByRole('button', { name: 'Pay' });
  await expect.poll(() => pay.hasAttribute('disabled')).toBe(false);
  await user.click(pay);
}

describe('the payment page after a successful payment', () => {
  it('replaces the spent card form with the confirmation and its transaction id', async () => {
    await payWithTestCard();

    const confirmed = await screen.findByRole('region', { name: messages.paymentConfirmed });
    expect(within(confirmed).getByText('pi_7')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Pay by card' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
    expect(await within(confirmed).findByText(/^Saved\./)).toBeInTheDocument();
    expect(api.callsTo('PATCH /api/booking/:id')[0]?.body).toEqual({
      appointmentId: 'b-7',
      transactionId: 'pi_7',
    });
  });

  it('shows its three notices one after another, the spent form taking no more meanwhile', async () => {
    await payWithTestCard();

    expect(await screen.findByText(messages.paymentComplete)).toBeVisible();
    expect(screen.queryByRole('region', { name: messages.paymentConfirmed })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay' })).toBeDisabled();

    await screen.findByRole('region', { name: messages.paymentConfirmed });
    expect(screen.queryByText(messages.paymentSaved)).toBeNull();
    expect(await screen.findByText(messages.paymentSaved)).toBeVisible();
  });

  it("takes the place of the notices before it, such as the booking's own", async () => {
    const booked = messages.bookingSet('Dec 2, 2026', '10:30 AM - 11:00 AM');
    await payWithTestCard(() => {
      toast.success(booked);
    });

    expect(await screen.findByText(messages.paymentComplete)).toBeVisible();
    // The booking's notice leaves: jsdom runs no animation, so its end is told here.
    const leaving = screen.getByText(booked).closest('.Toastify__toast') as HTMLElement;
    expect(leaving.className).toMatch(/bounce-exit/);
    fireEvent.animationEnd(leaving);
    await waitFor(() => expect(screen.queryByText(booked)).toBeNull());
    expect(await screen.findByText(messages.paymentSaved)).toBeVisible();
  });
});

describe('the payment page of a cancelled appointment', () => {
  it('says a paid one was cancelled and refunded, with the reason, and offers nothing to pay', async () => {
    api.on('GET /api/booking/:id', {
      body: onTheWire(
        booking({
          _id: 'b-7',
          status: 'cancelled',
          paid: true,
          transactionId: 'pi_7',
          cancellable: false,
          cancelReason: 'The dentist is ill.',
          refund: { id: 're_7' },
        }),
      ),
    });
    renderInPortal(<PaymentPage bookingId="b-7" />);
    expect(
      await screen.findByRole('heading', { name: 'This appointment was cancelled' }),
    ).toBeVisible();
    expect(
      screen.getByText(/Your payment of \$80 was refunded to your card \(refund id/),
    ).toHaveTextContent('re_7');
    expect(screen.getByText("The clinic's reason: The dentist is ill.")).toBeVisible();
    expect(screen.queryByText(/already paid/)).not.toBeInTheDocument();
    expect(screen.queryByText(/See you at the clinic/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
  });
});
