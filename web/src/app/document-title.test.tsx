import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_TITLE, titleOf, useDocumentTitle } from './document-title';

/** A screen that does nothing but keep the title. */
function Titled() {
  useDocumentTitle();
  return null;
}

describe('document titles', () => {
  it('name the screen first, then the portal', () => {
    expect(titleOf('/appointment')).toBe('Book an appointment · Doctors Portal');
    expect(titleOf('/dashboard')).toBe('My Appointments · Doctors Portal');
    expect(titleOf('/dashboard/history/')).toBe('My History · Doctors Portal');
    expect(titleOf('/dashboard/payment/0a1b2c3d')).toBe('Payment · Doctors Portal');
    expect(titleOf('/visit/a-token')).toBe('Your visit · Doctors Portal');
    expect(titleOf('/')).toBe('Doctors Portal · Dental care, on your terms');
  });

  it('say when there is no such page', () => {
    expect(titleOf('/dashboard/nope')).toBe(NOT_FOUND_TITLE);
    expect(titleOf('/dashboard/payment')).toBe(NOT_FOUND_TITLE);
  });

  it('follow the location', () => {
    render(
      <MemoryRouter initialEntries={['/dashboard/schedule']}>
        <Titled />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Schedule · Doctors Portal');
  });
});
