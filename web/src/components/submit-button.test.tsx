import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SubmitButton } from './submit-button';

function Form({ pending, onSubmit }: { pending: boolean; onSubmit: () => void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label>
        Label <input name="label" />
      </label>
      <SubmitButton pending={pending} pendingLabel="Adding…">
        Add closure
      </SubmitButton>
    </form>
  );
}

describe("a form's submit button", () => {
  it('keeps the focus while the form is sent, saying so, and sends it once', () => {
    const onSubmit = vi.fn();
    const { rerender } = render(<Form pending={false} onSubmit={onSubmit} />);
    const button = screen.getByRole('button', { name: 'Add closure' });
    button.focus();
    fireEvent.click(button);
    expect(onSubmit).toHaveBeenCalledTimes(1);

    rerender(<Form pending onSubmit={onSubmit} />);
    const pending = screen.getByRole('button', { name: 'Adding…' });
    expect(pending).toHaveFocus();
    expect(pending).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(pending);
    expect(onSubmit).toHaveBeenCalledTimes(1);

    rerender(<Form pending={false} onSubmit={onSubmit} />);
    expect(screen.getByRole('button', { name: 'Add closure' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Add closure' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});
