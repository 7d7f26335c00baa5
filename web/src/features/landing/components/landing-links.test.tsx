import { paths } from '@doctors-portal/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/fetch-stub';
import { clinic, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { InfoStrip } from './info-strip';
import { ServicesSection } from './services-section';

beforeEach(() => signIn(stubApi({ 'GET /api/clinic': { body: clinic } }), null));

describe('the landing page’s ways on', () => {
  it("links the location card to a map search of the clinic's address, in a new tab", async () => {
    renderInPortal(<InfoStrip />);
    const map = await screen.findByRole('link', {
      name: `${clinic.address} (opens a map in a new tab)`,
    });
    expect(map).toHaveAttribute(
      'href',
      `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(clinic.address)}`,
    );
    expect(map).toHaveAttribute('target', '_blank');
    expect(map).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it("sends each 'get the service' to the booking page with that treatment marked out", () => {
    renderInPortal(<ServicesSection />);
    const links = screen.getAllByRole('link', { name: 'get the service' });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `${paths.appointment}?treatment=Fluoride%20Treatment`,
      `${paths.appointment}?treatment=Cavity%20Filling`,
      `${paths.appointment}?treatment=Teeth%20Whitening`,
    ]);
  });
});
