import { paths } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { Navbar } from '../../../components/layout/navbar';
import { stubApi } from '../../../test/fetch-stub';
import { patient, signIn } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { DashboardSidebar } from './dashboard-sidebar';

beforeEach(() => signIn(stubApi(), patient, { admin: true }));

const dashboardPage = (at = '/dashboard') =>
  renderInPortal(
    <>
      <Navbar user={{ displayName: patient.name }} />
      <DashboardSidebar />
    </>,
    { at },
  );

/** The link of the menu beside the page. */
const besideLink = (name: string) =>
  within(screen.getAllByRole('navigation', { name: 'Dashboard' })[0] as HTMLElement).getByRole(
    'link',
    { name },
  );

describe('the one mobile menu on a dashboard page', () => {
  it('is opened by the bar’s single toggle and lists the site’s links, then the dashboard’s', async () => {
    const { user } = dashboardPage();
    expect(screen.getAllByRole('button', { name: /menu/i })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const toggle = screen.getByRole('button', { name: 'Close menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(within(menu as HTMLElement).getByRole('link', { name: 'Appointment' })).toBeVisible();
    const dashboard = within(menu as HTMLElement).getByRole('navigation', { name: 'Dashboard' });
    expect(within(dashboard).getByRole('link', { name: 'My History' })).toBeVisible();
    expect(await within(dashboard).findByRole('link', { name: 'All Users (ADMIN)' })).toBeVisible();
  });

  it('closes on Escape, giving focus back to the toggle', async () => {
    const { user } = dashboardPage();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });
});

describe('the menu beside a dashboard page', () => {
  it('heads with who is signed in, each whole on hover where the menu cuts it short', async () => {
    dashboardPage();
    const email = await screen.findByTitle(patient.email);
    expect(email).toHaveTextContent(patient.email);
    // The name above it.
    expect(email.previousElementSibling).toHaveTextContent(patient.name);
    expect(email.previousElementSibling).toHaveAttribute('title', patient.name);
  });
});

describe('where the menu says you are', () => {
  it('marks the page shown, and only it', () => {
    dashboardPage('/dashboard/history');
    expect(besideLink('My History')).toHaveAttribute('aria-current', 'page');
    expect(besideLink('Dashboard')).not.toHaveAttribute('aria-current');
  });

  it('marks My Appointments as the section of a visit’s payment page', () => {
    dashboardPage(paths.payment('3f1c2a4e-5b6d-4c7e-8f90-a1b2c3d4e5f6'));
    expect(besideLink('Dashboard')).toHaveAttribute('aria-current', 'true');
    expect(besideLink('Dashboard').className).toContain('bg-primary');
    expect(besideLink('My Review')).not.toHaveAttribute('aria-current');
  });
});
