import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PhoneLink } from './phone-link';

describe('a phone link', () => {
  it('calls the number as digits, with its leading +, and shows it as written', () => {
    render(<PhoneLink phone="+1 (555) 010-1234" className="link" />);
    const link = screen.getByRole('link', { name: '+1 (555) 010-1234' });
    expect(link).toHaveAttribute('href', 'tel:+15550101234');
    expect(link).toHaveClass('link');
  });

  it('shows what it is given instead of the number', () => {
    render(<PhoneLink phone="555 010 1234">Call the front desk</PhoneLink>);
    expect(screen.getByRole('link', { name: 'Call the front desk' })).toHaveAttribute(
      'href',
      'tel:5550101234',
    );
  });
});
