import { todayIn } from '@doctors-portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../test/fetch-stub';
import { clinic } from '../test/fixtures';
import { renderInPortal } from '../test/render';
import { policyOf, useCancellationPolicy } from './cancellation-policy';

function Policy() {
  return <p>{useCancellationPolicy() ?? 'no policy yet'}</p>;
}

describe('the cancellation policy as a page states it', () => {
  it('is the contract’s sentence with the clinic’s notice and phone', () => {
    expect(policyOf({ phone: '+1 555 0100' }, { cancellationNoticeHours: 48 })).toBe(
      'You can cancel free of charge until 48 hours before your visit; a paid visit cancelled by then is refunded to your card. After that, please call the clinic on +1 555 0100.',
    );
    expect(policyOf({ phone: '+1 555 0100' }, { cancellationNoticeHours: 0 })).toBe(
      'You can cancel free of charge until your visit starts; a paid visit is refunded to your card.',
    );
  });

  it('is nothing until both the phone and the notice are known', () => {
    expect(policyOf(undefined, { cancellationNoticeHours: 24 })).toBeNull();
    expect(policyOf({ phone: '+1 555 0100' }, undefined)).toBeNull();
  });
});

describe('the cancellation policy on a page without the booking calendar', () => {
  it("asks the calendar for the clinic's today once, and states the policy with its notice", async () => {
    const api = stubApi({
      'GET /api/clinic': { body: clinic },
      'GET /api/clinic/calendar': {
        body: { from: '', to: '', openingDays: [1, 2, 3], closed: [], cancellationNoticeHours: 12 },
      },
    });
    renderInPortal(<Policy />);
    expect(
      await screen.findByText(
        `You can cancel free of charge until 12 hours before your visit; a paid visit cancelled by then is refunded to your card. After that, please call the clinic on ${clinic.phone}.`,
      ),
    ).toBeInTheDocument();
    const [call, ...more] = api.callsTo('GET /api/clinic/calendar');
    expect(more).toEqual([]);
    const today = todayIn(clinic.timeZone);
    expect(call?.url.searchParams.get('from')).toBe(today);
    expect(call?.url.searchParams.get('to')).toBe(today);
  });
});
