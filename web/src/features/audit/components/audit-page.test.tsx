import type { AuditEntry } from '@doctors-portal/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiStub, failure } from '../../../test/fetch-stub';
import { stubAdminApi } from '../../../test/fixtures';
import { renderInPortal } from '../../../test/render';
import { AuditPage } from './audit-page';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'e-1',
    at: '2031-01-05T15:00:00.000Z',
    actor: { kind: 'patient', id: 'u-2', name: 'Percy Patient', email: 'percy@mail.com' },
    action: 'booking.created',
    subject: {
      type: 'booking',
      id: 'b-1',
      label: 'Teeth Cleaning, 2031-01-07, 10:00 AM - 10:30 AM',
    },
    before: null,
    after: { status: 'booked', treatment: 'Teeth Cleaning' },
    ...overrides,
  };
}

let api: ApiStub;
beforeEach(() => {
  api = stubAdminApi();
});

const showAudit = (at = '/dashboard/audit') =>
  renderInPortal(<AuditPage />, { at, path: '/dashboard/audit' });

describe('the audit log', () => {
  it('lists entries newest first with what, when (the clinic’s time), who, the subject and the changes', async () => {
    api.on('GET /api/audit', {
      body: {
        entries: [
          entry({
            _id: 'e-2',
            at: '2031-01-05T16:30:00.000Z',
            actor: { kind: 'admin', id: 'u-1', name: 'Audrey Admin', email: 'audrey@clinic.com' },
            action: 'role.granted',
            subject: { type: 'user', id: 'u-2', label: 'percy@mail.com' },
            before: { role: null },
            after: { role: 'admin' },
          }),
          entry(),
        ],
        nextCursor: null,
      },
    });
    showAudit();
    const list = await screen.findByRole('list', { name: 'Audit log' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Admin role given');
    expect(items[0]).toHaveTextContent('Jan 5, 2031, 11:30:00 AM');
    expect(items[0]).toHaveTextContent('By Audrey AdminAdmin');
    expect(items[0]).toHaveTextContent('User: percy@mail.com');
    expect(within(items[0] as HTMLElement).getByRole('definition')).toHaveTextContent(
      '— → changed to admin',
    );
    expect(items[1]).toHaveTextContent('Booking made');
    expect(items[1]).toHaveTextContent('Percy PatientPatient');
    expect(items[1]).toHaveTextContent('Booking: Teeth Cleaning, 2031-01-07, 10:00 AM - 10:30 AM');
    expect(
      within(items[1] as HTMLElement)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Status', 'Treatment']);
    expect(screen.queryByRole('navigation', { name: 'Audit log pages' })).toBeNull();
  });

  it('applies the filters: into the address and the request, from the first page', async () => {
    api.on('GET /api/audit', { body: { entries: [entry()], nextCursor: null } });
    const { user } = showAudit('/dashboard/audit?cursor=abc');
    await screen.findByRole('list', { name: 'Audit log' });

    await user.type(screen.getByLabelText('From'), '2031-01-01');
    await user.type(screen.getByLabelText('To'), '2031-01-31');
    // Who matches a person or a role; the field says so beside its placeholder.
    expect(screen.getByLabelText('Who')).toHaveAccessibleDescription(
      'Or a role: patient, admin or system.',
    );
    await user.type(screen.getByLabelText('Who'), 'audrey');
    await user.selectOptions(screen.getByLabelText('Action'), 'role.*');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    await vi.waitFor(() => {
      const last = api.callsTo('GET /api/audit').at(-1);
      expect(Object.fromEntries(last?.url.searchParams ?? [])).toEqual({
        from: '2031-01-01',
        to: '2031-01-31',
        actor: 'audrey',
        action: 'role.*',
      });
    });
    // The form shows what the address says.
    expect(screen.getByLabelText('Who')).toHaveValue('audrey');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await vi.waitFor(() => {
      expect([...(api.callsTo('GET /api/audit').at(-1)?.url.searchParams ?? [])]).toEqual([]);
    });
  });

  it('refuses a range that runs backwards without asking the server', async () => {
    api.on('GET /api/audit', { body: { entries: [entry()], nextCursor: null } });
    const { user } = showAudit();
    await screen.findByRole('list', { name: 'Audit log' });
    const asked = api.callsTo('GET /api/audit').length;

    await user.type(screen.getByLabelText('From'), '2031-02-01');
    await user.type(screen.getByLabelText('To'), '2031-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    expect(await screen.findByText('The start date must not be after the end date.')).toBeVisible();
    expect(screen.getByLabelText('From')).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('GET /api/audit')).toHaveLength(asked);
  });

  it('pages to older entries with the cursor, and back to the newest', async () => {
    api.on('GET /api/audit', (call) =>
      call.url.searchParams.get('cursor') === 'page-2'
        ? { body: { entries: [entry({ _id: 'e-old', action: 'doctor.added' })], nextCursor: null } }
        : { body: { entries: [entry()], nextCursor: 'page-2' } },
    );
    const { user } = showAudit();
    await screen.findByText('Booking made');

    await user.click(screen.getByRole('button', { name: /Older entries/ }));
    expect(await screen.findByText('Doctor added')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Older entries/ })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Audit log' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: /Newest entries/ }));
    expect(await screen.findByText('Booking made')).toBeVisible();
  });

  it('says when nothing matches, and shows the server’s reason when it cannot answer', async () => {
    api.on('GET /api/audit', { body: { entries: [], nextCursor: null } });
    showAudit('/dashboard/audit?actor=nobody');
    expect(
      await screen.findByText('Nothing in the audit log matches these filters.'),
    ).toBeVisible();
  });

  it('shows the server’s reason with Try again', async () => {
    api.on('GET /api/audit', failure(400, 'The start date must not be after the end date'));
    showAudit();
    expect(
      await screen.findByText(
        'The audit log could not be loaded. The start date must not be after the end date',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
