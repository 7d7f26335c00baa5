import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SubmitButton } from './submit-button';

describe("a form's submit button", () => {
  it('says what it is doing, and waits, while the form is sent', () => {
    const { rerender } = render(
      <SubmitButton pending={false} pendingLabel="Saving…">
        Save booking rules
      </SubmitButton>,
    );
    const button = screen.getByRole('button', { name: 'Save booking rules' });
    expect(button).toHaveAttribute('type', 'submit');
    expect(button).toBeEnabled();

    rerender(
      <SubmitButton pending pendingLabel="Saving…">
        Save booking rules
      </SubmitButton>,
    );
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
  });
});
