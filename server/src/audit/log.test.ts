import { describe, expect, it } from 'vitest';
import { engine, useTestDatabase } from '../../test/helper.js';
import { groupCommit } from '../db/group-commit.js';
import { adminActor, patientActor, recordAudit, redacted, systemActor } from './log.js';

const admin = { id: 'admin-1', name: 'Clinic Admin', email: 'admin@clinic.com' };

describe(`the audit log's record (${engine})`, () => {
  const database = useTestDatabase();

  const entriesFor = (subjectId: string) =>
    database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .orderBy('at')
      .execute();

  it('writes who, when, what, the subject and the changed fields as JSON', async () => {
    await database.db.transaction().execute((tx) =>
      recordAudit(tx, {
        actor: adminActor(admin),
        action: 'doctor.added',
        subject: { type: 'doctor', id: 'doctor-1', label: 'zara@clinic.com' },
        after: { name: 'Zara Ahmed', email: 'zara@clinic.com' },
        at: new Date('2030-01-05T10:00:00.000Z'),
      }),
    );

    expect(await entriesFor('doctor-1')).toEqual([
      {
        id: expect.any(String),
        at: '2030-01-05T10:00:00.000Z',
        actor_kind: 'admin',
        actor_id: 'admin-1',
        actor_name: 'Clinic Admin',
        actor_email: 'admin@clinic.com',
        action: 'doctor.added',
        subject_type: 'doctor',
        subject_id: 'doctor-1',
        subject_label: 'zara@clinic.com',
        before: null,
        after: JSON.stringify({ name: 'Zara Ahmed', email: 'zara@clinic.com' }),
      },
    ]);
  });

  it("records the server's own actions as the system, with no account", async () => {
    await database.db.transaction().execute((tx) =>
      recordAudit(tx, {
        actor: systemActor('stripe-webhook'),
        action: 'booking.paid',
        subject: { type: 'booking', id: 'booking-system' },
        before: { paid: false },
        after: { paid: true },
      }),
    );

    expect(await entriesFor('booking-system')).toEqual([
      expect.objectContaining({
        actor_kind: 'system',
        actor_id: null,
        actor_name: 'stripe-webhook',
        actor_email: null,
      }),
    ]);
  });

  it('commits with the change it records, and rolls back with it', async () => {
    const failing = database.db.transaction().execute(async (tx) => {
      await recordAudit(tx, {
        actor: patientActor(admin),
        action: 'booking.created',
        subject: { type: 'booking', id: 'booking-rolled-back' },
      });
      throw new Error('the change failed');
    });
    await expect(failing).rejects.toThrow('the change failed');

    expect(await entriesFor('booking-rolled-back')).toEqual([]);
  });

  it('rolls back with its savepoint inside a group commit, keeping the others', async () => {
    const transact = groupCommit(database.handle);
    const kept = transact((tx) =>
      recordAudit(tx, {
        actor: patientActor(admin),
        action: 'booking.created',
        subject: { type: 'booking', id: 'booking-kept' },
      }),
    );
    const refused = transact(async (tx) => {
      await recordAudit(tx, {
        actor: patientActor(admin),
        action: 'booking.created',
        subject: { type: 'booking', id: 'booking-refused' },
      });
      throw new Error('refused');
    });

    // Both at once: the refused one may settle first, and must not be left unhandled meanwhile.
    await Promise.all([
      expect(kept).resolves.toBeUndefined(),
      expect(refused).rejects.toThrow('refused'),
    ]);
    expect(await entriesFor('booking-kept')).toHaveLength(1);
    expect(await entriesFor('booking-refused')).toEqual([]);
  });

  it('never keeps a password, token, secret or card detail', async () => {
    await database.db.transaction().execute((tx) =>
      recordAudit(tx, {
        actor: adminActor(admin),
        action: 'booking.paid',
        subject: { type: 'booking', id: 'booking-secrets' },
        before: { paid: false, password: 'plaque-free-smile-42' },
        after: {
          paid: true,
          transactionId: 'pi_demo_123',
          clientSecret: 'pi_demo_123_secret_abc',
          token: 'session-token-value',
          card: { number: '4242424242424242', cvc: '123', last4: '4242' },
          note: 'paid with 4242 4242 4242 4242 at the desk',
          bookingId: '8f3a1c2e-1234-4567-8901-234567890123',
        },
      }),
    );

    const [row] = await entriesFor('booking-secrets');
    const stored = `${row?.before} ${row?.after}`;
    for (const secret of [
      'plaque-free-smile-42',
      'secret_abc',
      'session-token-value',
      '4242424242424242',
      '4242 4242 4242 4242',
      'cvc',
      'last4',
    ]) {
      expect(stored).not.toContain(secret);
    }
    expect(JSON.parse(row?.after ?? 'null')).toEqual({
      paid: true,
      transactionId: 'pi_demo_123',
      note: 'paid with [redacted] at the desk',
      bookingId: '8f3a1c2e-1234-4567-8901-234567890123',
    });
  });

  it('cannot be changed or deleted, even by the server', async () => {
    await expect(
      database.db.updateTable('audit_log').set({ action: 'doctor.deleted' }).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(database.db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    expect(await entriesFor('doctor-1')).toEqual([
      expect.objectContaining({ action: 'doctor.added' }),
    ]);
  });
});

describe('redacted', () => {
  it('keeps ordinary fields and numbers that are not card numbers', () => {
    expect(
      redacted({ phone: '+1 555 123 4567', age: 42, slot: '10:00 AM - 10:30 AM', at: null }),
    ).toEqual({ phone: '+1 555 123 4567', age: 42, slot: '10:00 AM - 10:30 AM', at: null });
  });

  it('drops secret fields at any depth', () => {
    expect(redacted({ user: { name: 'A', passwordHash: 'x', accessToken: 'y' } })).toEqual({
      user: { name: 'A' },
    });
  });
});
