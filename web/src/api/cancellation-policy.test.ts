import { CANCELLATION_CLOSED, cancellationPolicy } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import { policyOf } from './cancellation-policy';

const clinic = { phone: '+1 (555) 010-2030' };
const calendar = { cancellationNoticeHours: 24 };

describe('the cancellation policy a page shows', () => {
  it('is the clinic’s policy, once the page knows its phone and its notice', () => {
    expect(policyOf(clinic, calendar)).toBe(cancellationPolicy(24, clinic.phone));
    expect(policyOf(undefined, calendar)).toBeNull();
    expect(policyOf(clinic, undefined)).toBeNull();
  });

  it('adds, for a booking already past the notice, that it is too late and the number to call', () => {
    expect(policyOf(clinic, calendar, false)).toBe(
      `${cancellationPolicy(24, clinic.phone)} ${CANCELLATION_CLOSED}`,
    );
    expect(policyOf(clinic, calendar, true)).toBe(cancellationPolicy(24, clinic.phone));
  });
});
