import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../test/fetch-stub';
import { clinic } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { ContactSection } from './contact-section';
import { VisitCard } from './visit-card';

beforeEach(() => {
  stubApi({ 'GET /api/clinic': { body: clinic }, 'GET /api/auth/get-session': { body: null } });
});

/** Each detail of a `<dl>` as the term read out and the text shown, in order. */
const detailsOf = (list: HTMLElement) =>
  within(list)
    .getAllByRole('term')
    .map((term) => [term.textContent, term.nextElementSibling?.textContent]);

describe("the clinic's details", () => {
  it('on the visit card: hours, address, phone and email, the phone and email as links', async () => {
    renderInPortal(<VisitCard />);
    const phone = await screen.findByRole('link', { name: clinic.phone });
    expect(phone.getAttribute('href')).toMatch(/^tel:\+?\d+$/);
    expect(screen.getByRole('link', { name: clinic.email })).toHaveAttribute(
      'href',
      `mailto:${clinic.email}`,
    );
    const list = screen.getByRole('heading', { name: 'Visit the clinic' })
      .nextElementSibling as HTMLElement;
    expect(detailsOf(list).map(([term]) => term)).toEqual([
      'Opening hours',
      'Address',
      'Phone',
      'Email',
    ]);
    expect(detailsOf(list)[1]?.[1]).toBe(clinic.address);
  });

  it('on the contact panel: phone, email, address and hours', async () => {
    renderInPortal(<ContactSection />);
    const phone = await screen.findByRole('link', { name: clinic.phone });
    expect(phone.getAttribute('href')).toMatch(/^tel:\+?\d+$/);
    const list = phone.closest('dl') as HTMLElement;
    expect(detailsOf(list).map(([term]) => term)).toEqual([
      'Phone',
      'Email',
      'Address',
      'Opening hours',
    ]);
    expect(detailsOf(list)[2]?.[1]).toBe(clinic.address);
  });
});
