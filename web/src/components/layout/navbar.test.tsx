import { messages } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderInPortal } from '../../test/render';
import { useConfirm } from '../confirm-dialog';
import { Navbar } from './navbar';

/** The bar of a signed-in patient, whose Logout asks first, as the app's layout does. */
function SignedInBar() {
  const confirm = useConfirm();
  return (
    <Navbar
      user={{ displayName: 'Jane Doe' }}
      onLogout={() => void confirm({ message: messages.logoutConfirm, confirmLabel: 'Logout' })}
    />
  );
}

beforeEach(() => {
  stubApi();
});

describe('the mobile menu and the Logout confirmation it opens', () => {
  it.each(['{Escape}', 'Cancel'])(
    'stays open when the confirmation is dismissed (%s), so the focus has Logout to go back to',
    async (how) => {
      const { user } = renderInPortal(<SignedInBar />, { at: '/' });
      await user.click(screen.getByRole('button', { name: 'Open menu' }));
      await user.click(screen.getByRole('button', { name: 'Logout' }));
      expect(await screen.findByText(messages.logoutConfirm)).toBeVisible();

      if (how === 'Cancel') await user.click(screen.getByRole('button', { name: 'Cancel' }));
      else await user.keyboard(how);

      expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      const bar = screen.getByRole('navigation', { name: 'Main' });
      expect(within(bar).getByRole('button', { name: 'Logout' })).toBeVisible();
    },
  );

  it('still closes on a click outside the bar, with no dialog open', async () => {
    const { user } = renderInPortal(
      <>
        <SignedInBar />
        <p>Page text</p>
      </>,
      { at: '/' },
    );
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.click(screen.getByText('Page text'));
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });
});
