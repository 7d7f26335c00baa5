import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../test/fetch-stub';
import { booking, patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { BookingConfirmation } from './booking-confirmation';

beforeEach(() => signIn(stubApi(), patient));

describe('the confirmation panel', () => {
  it('names the doctor when the visit has one, and offers to pay what is due', () => {
    renderInPortal(
      <BookingConfirmation
        booking={booking({ doctor: { _id: 'd-1', name: 'Dr. Ana Ruiz' } })}
        onDismiss={vi.fn()}
      />,
    );
    expect(screen.getByText('Doctor')).toBeVisible();
    expect(screen.getByText('Dr. Ana Ruiz')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Pay now' })).toBeVisible();
  });

  it('leaves out the doctor of a treatment no doctor performs, and Pay now when nothing is due', () => {
    renderInPortal(
      <BookingConfirmation booking={booking({ doctor: null, price: 0 })} onDismiss={vi.fn()} />,
    );
    expect(screen.queryByText('Doctor')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Pay now' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add to calendar' })).toBeVisible();
  });
});
