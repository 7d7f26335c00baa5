import type { AuditEntry } from '@doctors-portal/contract';
import { describe, expect, it } from 'vitest';
import {
  actionName,
  actorOf,
  changesOf,
  fieldName,
  filterFrom,
  querySearchOf,
  rangeProblem,
  subjectOf,
} from './audit';

function entry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    _id: 'e-1',
    at: '2031-01-05T15:00:00.000Z',
    actor: { kind: 'admin', id: 'u-1', name: 'Audrey Admin', email: 'audrey@clinic.com' },
    action: 'role.granted',
    subject: { type: 'user', id: 'u-2', label: 'percy@mail.com' },
    before: { role: null },
    after: { role: 'admin' },
    ...overrides,
  };
}

describe('the audit log filters in the address', () => {
  it('reads dates, who and the action, leaving out what is impossible', () => {
    expect(
      filterFrom(
        new URLSearchParams('from=2031-01-01&to=2031-02-30&actor= audrey &action=booking.*'),
      ),
    ).toEqual({ from: '2031-01-01', to: '', actor: 'audrey', action: 'booking.*', cursor: '' });
    expect(filterFrom(new URLSearchParams('action=DROP TABLE&from=Jan 5, 2031'))).toMatchObject({
      from: '',
      action: '',
    });
  });

  it('writes only what is set, and round-trips', () => {
    const filter = filterFrom(new URLSearchParams('to=2031-01-31&cursor=abc'));
    expect(querySearchOf(filter)).toEqual({ to: '2031-01-31', cursor: 'abc' });
    expect(filterFrom(new URLSearchParams(querySearchOf(filter)))).toEqual(filter);
  });

  it('refuses a range that runs backwards', () => {
    expect(rangeProblem({ from: '2031-01-06' as never, to: '2031-01-05' as never })).toBe(
      'The start date must not be after the end date.',
    );
    expect(rangeProblem({ from: '2031-01-05' as never, to: '2031-01-05' as never })).toBeNull();
    expect(rangeProblem({ from: '', to: '2031-01-05' as never })).toBeNull();
  });
});

describe('an entry as the list shows it', () => {
  it('names the action, or shows an action it has no name for as it is', () => {
    expect(actionName('booking.created')).toBe('Booking made');
    expect(actionName('role.granted')).toBe('Admin role given');
    expect(actionName('clinic.closure_added')).toBe('Closure added');
    expect(actionName('treatment.retired')).toBe('Treatment retired');
    expect(actionName('doctor.updated')).toBe('Doctor changed');
    expect(actionName('doctor.calendar_feed_created')).toBe('Calendar feed link made');
    expect(actionName('doctor.calendar_feed_revoked')).toBe('Calendar feed stopped');
    expect(actionName('clinic.something_new')).toBe('clinic.something_new');
  });

  it('names who acted: an admin, a patient, a removed account or the system', () => {
    expect(actorOf(entry())).toEqual({
      name: 'Audrey Admin',
      detail: 'audrey@clinic.com',
      kind: 'Admin',
    });
    expect(
      actorOf(entry({ actor: { kind: 'patient', id: 'u-3', name: ' ', email: 'p@mail.com' } })),
    ).toEqual({ name: 'p@mail.com', detail: 'p@mail.com', kind: 'Patient' });
    expect(
      actorOf(entry({ actor: { kind: 'system', id: null, name: 'stripe-webhook', email: null } })),
    ).toEqual({ name: 'System', detail: 'stripe-webhook', kind: 'System' });
  });

  it('names the subject by its label, or by its kind and id', () => {
    expect(subjectOf(entry())).toBe('User: percy@mail.com');
    expect(subjectOf(entry({ subject: { type: 'booking', id: 'b-1', label: null } }))).toBe(
      'Booking b-1',
    );
  });

  it('lists each changed field with its value before and after', () => {
    const zone = 'America/New_York';
    expect(changesOf(entry(), zone)).toEqual([{ field: 'Role', before: '—', after: 'admin' }]);
    expect(
      changesOf(
        entry({
          before: null,
          after: { status: 'booked', priceCents: 8000, paid: false, slot: { from: 1 } },
        }),
        zone,
      ),
    ).toEqual([
      { field: 'Status', before: null, after: 'booked' },
      { field: 'Price', before: null, after: '$80' },
      { field: 'Paid', before: null, after: 'false' },
      { field: 'Slot', before: null, after: '{"from":1}' },
    ]);
    expect(changesOf(entry({ before: { name: 'Dr A' }, after: null }), zone)).toEqual([
      { field: 'Name', before: 'Dr A', after: null },
    ]);
  });

  it('shows amounts in dollars, moments in the clinic’s zone and dates as the portal writes them', () => {
    expect(
      changesOf(
        entry({
          before: { date: '2031-01-05', refundedAt: null },
          after: {
            date: '2031-01-06',
            amount_cents: 12_345,
            refundedAt: '2031-01-05T15:00:00.000Z',
            note: '2031-01-06 at noon',
          },
        }),
        'America/New_York',
      ),
    ).toEqual([
      { field: 'Date', before: 'Jan 5, 2031', after: 'Jan 6, 2031' },
      { field: 'Refunded at', before: '—', after: 'Jan 5, 2031, 10:00:00 AM' },
      { field: 'Amount', before: '—', after: '$123.45' },
      { field: 'Note', before: '—', after: '2031-01-06 at noon' },
    ]);
  });

  it('names fields as words', () => {
    expect(fieldName('cancel_reason')).toBe('Cancel reason');
  });
});
