import { describe, expect, it } from 'vitest';
import { engine, useTestDatabase } from '../../test/helper.js';
import { findStoredIntent, recordRefund, type StoredIntent, storeIntent } from './repository.js';

describe(`the records of a booking's payment intent and refund (${engine})`, () => {
  const database = useTestDatabase();

  const intent = (bookingId: string, intentId: string): StoredIntent => ({
    booking_id: bookingId,
    provider: 'demo',
    intent_id: intentId,
    amount_cents: 8000,
    currency: 'usd',
    created_at: new Date().toISOString(),
  });

  it('stores one intent recorded by many requests at once, refusing none of them', async () => {
    for (let round = 0; round < 100; round++) {
      const stored = intent(`booking-${round}`, `pi_${round}`);
      await Promise.all(Array.from({ length: 8 }, () => storeIntent(database.db, stored)));
      expect(await findStoredIntent(database.db, stored.booking_id)).toMatchObject({
        intent_id: stored.intent_id,
      });
    }
  });

  it("replaces a booking's intent by its successor", async () => {
    await storeIntent(database.db, intent('booking-replaced', 'pi_first'));
    await storeIntent(database.db, intent('booking-replaced', 'pi_second'));
    expect(await findStoredIntent(database.db, 'booking-replaced')).toMatchObject({
      intent_id: 'pi_second',
    });
  });

  it('records one refund reported by many requests at once, and says which call recorded it', async () => {
    for (let round = 0; round < 100; round++) {
      const refund = {
        id: `re_${round}`,
        booking_id: `booking-${round}`,
        provider: 'demo' as const,
        intent_id: `pi_${round}`,
        amount_cents: 8000,
        currency: 'usd',
        reason: 'cancelled by the clinic',
        created_at: new Date().toISOString(),
      };
      const recorded = await Promise.all(
        Array.from({ length: 8 }, () => recordRefund(database.db, refund)),
      );
      expect(recorded.filter(Boolean)).toEqual([true]);
    }
  });
});
