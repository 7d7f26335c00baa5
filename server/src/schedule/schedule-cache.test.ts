import path from 'node:path';
import type { ScheduleEntry } from '@doctors-portal/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer } from '../../test/accounts.js';
import { clinicDay } from '../../test/dates.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import {
  type Patient,
  signedUpAdmin,
  signedUpPatient,
  unpaidBooking,
} from '../../test/payment-fixtures.js';
import { buildApp } from '../app.js';
import type { DatabaseHandle } from '../db/database.js';
import { prepareDatabase } from '../db/prepare.js';
import {
  PRUNE_SCHEDULE_CHANGES_MS,
  pruneScheduleChanges,
  scheduleRevision,
} from './answer-cache.js';

/**
 * `GET /api/schedule` gives an answer again while no booking or refund has changed
 * (answer-cache.ts, decision 026). Every change must show on the very next request, whichever
 * instance made it: here a second app on the same database, as another process of the portal
 * would be, changes what the first one has answered, and a write still uncommitted while the
 * first instance answers shows once it commits.
 */
describe(`the schedule's kept answers (${engine})`, () => {
  let t: TestApp;
  let other: { app: FastifyInstance; database: DatabaseHandle };
  let admin: Patient;
  let jane: Patient;
  const day = clinicDay(50);
  /** A past day: only a visit whose day has come can be a no-show. */
  const elsewhere = clinicDay(-5);

  /** Another instance of the portal on the same database, as another process would be. */
  const anotherInstance = async () => {
    const database = await prepareDatabase(t.config.database);
    const app = await buildApp({
      config: t.config,
      database,
      webRoot: path.join(t.config.dataDir, 'no-web-build'),
      logger: false,
    });
    return { app, database };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    other = await anotherInstance();
    admin = await signedUpAdmin(t);
    jane = await signedUpPatient(t.app, 'Jane Doe');
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.database.close();
    await t?.close();
  });

  /** Changes a booking's phone through the other instance, and runs `meanwhile` before it commits. */
  const changePhoneElsewhere = (bookingId: string, phone: string, meanwhile: () => Promise<void>) =>
    other.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('booking').set({ phone }).where('id', '=', bookingId).execute();
      await meanwhile();
    });

  const schedule = async (date = day): Promise<ScheduleEntry[]> => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/schedule?from=${date}&to=${date}`,
      headers: bearer(admin.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { bookings: ScheduleEntry[] }).bookings;
  };

  it('shows at once what another instance changed: a no-show elsewhere, a cancellation, a refund, a move', async () => {
    const kept = await unpaidBooking(t, jane, { date: day, slot: '9:00 AM - 9:30 AM' });
    const elsewhereBooking = await unpaidBooking(t, jane, { date: elsewhere });
    expect((await schedule()).map((entry) => [entry._id, entry.noShows])).toEqual([[kept.id, 0]]);
    expect(await schedule()).toHaveLength(1);

    // A no-show on another day changes the patient's count on this one.
    const noShow = await other.app.inject({
      method: 'PATCH',
      url: `/api/booking/${elsewhereBooking.id}/status`,
      headers: bearer(admin.token),
      payload: { status: 'no_show' },
    });
    expect(noShow.statusCode, noShow.body).toBe(200);
    expect((await schedule())[0]?.noShows).toBe(1);

    const cancelled = await other.app.inject({
      method: 'POST',
      url: `/api/booking/${kept.id}/cancel`,
      headers: bearer(admin.token),
      payload: { reason: 'The dentist is ill' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await schedule())[0]).toMatchObject({
      status: 'cancelled',
      cancelReason: 'The dentist is ill',
      refund: null,
    });

    // Written straight into the database, as any other process might.
    await other.database.db
      .insertInto('refund')
      .values({
        id: 're_other_instance',
        booking_id: kept.id,
        provider: 'demo',
        intent_id: 'pi_other_instance',
        amount_cents: 8000,
        currency: 'usd',
        reason: 'Refunded',
        created_at: new Date().toISOString(),
      })
      .execute();
    expect((await schedule())[0]?.refund).toEqual({ id: 're_other_instance' });

    await other.database.db
      .updateTable('booking')
      .set({ date: elsewhere })
      .where('id', '=', kept.id)
      .execute();
    expect(await schedule()).toEqual([]);
    expect((await schedule(elsewhere)).map((entry) => entry._id).sort()).toEqual(
      [kept.id, elsewhereBooking.id].sort(),
    );
  });

  it('shows a write that was not yet committed when the answer was read, once it commits', async () => {
    const date = clinicDay(52);
    const booking = await unpaidBooking(t, jane, { date, phone: '+1 555 000 0001' });
    expect((await schedule(date))[0]?.phone).toBe('+1 555 000 0001');
    await changePhoneElsewhere(booking.id, '+1 555 000 0002', async () => {
      // On PostgreSQL a later write commits meanwhile, so that the pending one is among the
      // running transactions of the snapshot the answer is read under (SQLite writes one
      // transaction at a time).
      if (engine === 'postgres') await unpaidBooking(t, jane, { date: clinicDay(54) });
      // Read (and kept) while the change is still the other transaction's own.
      expect((await schedule(date))[0]?.phone).toBe('+1 555 000 0001');
    });
    expect((await schedule(date))[0]?.phone).toBe('+1 555 000 0002');
  });

  it('shows, after the record of writes is pruned, a write it had not seen when it kept its answer', async () => {
    const date = clinicDay(55);
    const booking = await unpaidBooking(t, jane, { date, phone: '+1 555 000 0003' });
    await changePhoneElsewhere(booking.id, '+1 555 000 0004', async () => {
      expect((await schedule(date))[0]?.phone).toBe('+1 555 000 0003');
    });
    // The write has ended, so a prune forgets it: the answer kept before must not outlive it.
    await pruneScheduleChanges(t.db);
    expect((await schedule(date))[0]?.phone).toBe('+1 555 000 0004');
  });

  it('keeps its record of writes from growing, and counts what a prune forgot as a change', async () => {
    const before = await scheduleRevision(t.db);
    await unpaidBooking(t, jane, { date: clinicDay(57) });
    // Two instances at once, as any may prune at any time.
    await Promise.all([pruneScheduleChanges(t.db), pruneScheduleChanges(other.database.db)]);
    if (engine === 'postgres') {
      expect(await t.db.selectFrom('schedule_change').select('xid').execute()).toEqual([]);
    }
    const after = await scheduleRevision(t.db, before.token);
    expect(after.changed).toBe(true);
    expect(await scheduleRevision(t.db, after.token)).toMatchObject({ changed: false });
    await unpaidBooking(t, jane, { date: clinicDay(58) });
    expect(await scheduleRevision(t.db, after.token)).toMatchObject({ changed: true });
  });

  // SQLite's record is one revision row, which does not grow: nothing is pruned there.
  it.skipIf(engine !== 'postgres')('has every instance prune the record once an hour', async () => {
    await unpaidBooking(t, jane, { date: clinicDay(59) });
    const recorded = () => t.db.selectFrom('schedule_change').select('xid').execute();
    expect(await recorded()).not.toEqual([]);
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const instance = await anotherInstance();
    try {
      await vi.advanceTimersByTimeAsync(PRUNE_SCHEDULE_CHANGES_MS - 1);
      expect(await recorded()).not.toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitFor(async () => expect(await recorded()).toEqual([]));
    } finally {
      vi.useRealTimers();
      await instance.app.close();
      await instance.database.close();
    }
  });

  it('reads no change where there was none, and every write to bookings or refunds as one', async () => {
    const before = await scheduleRevision(t.db);
    expect(await scheduleRevision(t.db, before.token)).toMatchObject({ changed: false });
    await t.db.updateTable('user').set({ name: 'Jane D.' }).where('id', '=', jane.id).execute();
    const unchanged = await scheduleRevision(t.db, before.token);
    expect(unchanged.changed).toBe(false);
    const booking = await unpaidBooking(t, jane, { date: clinicDay(53) });
    const booked = await scheduleRevision(t.db, unchanged.token);
    expect(booked.changed).toBe(true);
    await t.db.deleteFrom('booking').where('id', '=', booking.id).execute();
    expect(await scheduleRevision(t.db, booked.token)).toMatchObject({ changed: true });
  });
});
