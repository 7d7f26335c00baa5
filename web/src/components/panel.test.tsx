import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FormActions, Panel } from './panel';

describe('a dashboard panel', () => {
  it('is a region named by its heading, which takes the focus only when asked to', () => {
    const heading = createRef<HTMLHeadingElement>();
    const { rerender } = render(
      <Panel title="Edit Ana Lee">
        <p>Fields</p>
      </Panel>,
    );
    const region = screen.getByRole('region', { name: 'Edit Ana Lee' });
    expect(region).toHaveTextContent('Fields');
    expect(screen.getByRole('heading', { level: 2 })).not.toHaveAttribute('tabindex');

    rerender(
      <Panel title="Calendar feed for Ana Lee" headingRef={heading}>
        <p>Fields</p>
      </Panel>,
    );
    heading.current?.focus();
    expect(screen.getByRole('heading', { name: 'Calendar feed for Ana Lee' })).toHaveFocus();
  });

  it('cancels, or waits with both buttons while it is sent', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const { rerender } = render(
      <form>
        <FormActions busy={false} onCancel={onCancel} submitLabel="Save changes" />
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(screen.getByRole('button', { name: 'Save changes' })).toHaveAttribute('type', 'submit');

    rerender(
      <form>
        <FormActions busy onCancel={onCancel} submitLabel="Save changes" />
      </form>,
    );
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Save changes/ })).toBeDisabled();
  });
});
