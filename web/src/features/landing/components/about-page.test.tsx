import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type ApiStub, stubApi } from '../../../test/fetch-stub';
import { clinic } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { AboutPage } from './about-page';

let api: ApiStub;
beforeEach(() => {
  api = stubApi();
});

describe("About's 'How to book'", () => {
  it('offers Google for signing in where the portal has a Google client', async () => {
    api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: true } });
    renderInPortal(<AboutPage />);
    expect(
      await screen.findByText(
        'Use your email address or your Google account. New patients are set up in a minute.',
      ),
    ).toBeVisible();
  });

  it('names only the email address where it has none', async () => {
    api.on('GET /api/clinic', { body: { ...clinic, signInWithGoogle: false } });
    renderInPortal(<AboutPage />);
    expect(
      await screen.findByText('Use your email address. New patients are set up in a minute.'),
    ).toBeVisible();
    expect(screen.queryByText(/Google|social account/)).toBeNull();
  });
});
