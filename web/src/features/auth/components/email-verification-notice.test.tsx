import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderSignedIn } from '../../../test/render';
import { VERIFIED_MESSAGE } from '../email-verification';
import { EmailVerificationNotice } from './email-verification-notice';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

function Landing() {
  const { search } = useLocation();
  return (
    <>
      <EmailVerificationNotice />
      <p>{`Query: ${search || 'none'}`}</p>
    </>
  );
}

/** The status region, once the landing shows (the guard's loader is a status region too). */
async function notice(text: string) {
  const region = (await screen.findByText(text, { exact: false })).closest('[role="status"]');
  if (!(region instanceof HTMLElement)) throw new Error(`${text} is in no status region`);
  return region;
}

const land = (at: string) => renderSignedIn(<Landing />, { path: '/dashboard', at });

describe("the verification link's landing", () => {
  it('says the address is verified, until dismissed', async () => {
    signIn(api, patient);
    const { user } = land('/dashboard?verification=email');
    expect(await notice(VERIFIED_MESSAGE)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(VERIFIED_MESSAGE)).toBeNull();
    expect(screen.getByText('Query: none')).toBeVisible();
  });

  it('says an expired link has expired, and how to get a new one', async () => {
    signIn(api, { ...patient, emailVerified: false });
    land('/dashboard?verification=email&error=TOKEN_EXPIRED');
    const shown = await notice('That verification link has expired.');
    expect(shown).toHaveTextContent("Use 'Resend verification email' to get a new link.");
    expect(shown).not.toHaveTextContent(VERIFIED_MESSAGE);
  });

  it('says a broken link is not valid', async () => {
    signIn(api, { ...patient, emailVerified: false });
    land('/dashboard?verification=email&error=INVALID_TOKEN');
    expect(await notice('That verification link is not valid')).toBeVisible();
  });

  it('says nothing on any other visit', async () => {
    signIn(api, patient);
    land('/dashboard?error=TOKEN_EXPIRED');
    expect(await screen.findByText('Query: ?error=TOKEN_EXPIRED')).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
  });
});
