import { describe, expect, it } from 'vitest';
import { cancellationPolicy } from './cancellation-policy.js';

describe('the cancellation policy', () => {
  it('names the notice and the number to call after it', () => {
    expect(cancellationPolicy(24, '+1 (555) 010-2030')).toBe(
      'You can cancel free of charge until 24 hours before your visit; a paid visit cancelled by ' +
        'then is refunded to your card. After that, please call the clinic on +1 (555) 010-2030.',
    );
    expect(cancellationPolicy(1, '555')).toContain('until 1 hour before your visit');
  });

  it('with no notice, allows cancelling until the visit starts', () => {
    expect(cancellationPolicy(0, '555')).toBe(
      'You can cancel free of charge until your visit starts; a paid visit is refunded to your card.',
    );
  });
});
