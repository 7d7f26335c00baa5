import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { clinicDay } from '../../test/dates.js';
import { engine, useTestDatabase } from '../../test/helper.js';
import { newBookingRow } from '../bookings/repository.js';
import { handleError, REMOVED_MEANWHILE } from '../http/errors.js';
import { isForeignKeyViolation } from './foreign-key-violation.js';

describe(`a statement naming a row removed meanwhile (${engine})`, () => {
  const database = useTestDatabase();

  /** What the engine throws for a booking of an account that is no longer there. */
  async function bookingOfRemovedAccount(): Promise<unknown> {
    const row = newBookingRow({
      treatment_id: 'teeth-cleaning',
      treatment_name: 'Teeth Cleaning',
      price_cents: 8000,
      date: clinicDay(30),
      slot: '10:00 AM - 10:30 AM',
      patient_id: 'removed-account',
      patient_email: 'gone@example.com',
      patient_name: 'Gone Patient',
      phone: '+1 555 010 2030',
      age: 34,
    });
    return database.db
      .insertInto('booking')
      .values(row)
      .execute()
      .then(
        () => null,
        (error: unknown) => error,
      );
  }

  it('is told apart from any other failure, on either engine', async () => {
    expect(isForeignKeyViolation(await bookingOfRemovedAccount())).toBe(true);
    const at = new Date().toISOString();
    const duplicate = await database.db
      .insertInto('clinic_setting')
      .values([
        { name: 'same', value: '1', updated_at: at, updated_by: null },
        { name: 'same', value: '2', updated_at: at, updated_by: null },
      ])
      .execute()
      .catch((error: unknown) => error);
    expect(isForeignKeyViolation(duplicate)).toBe(false);
    expect(isForeignKeyViolation(new Error('connection refused'))).toBe(false);
  });

  it('is answered 409 with a reason, not 500', async () => {
    const error = await bookingOfRemovedAccount();
    const app = Fastify();
    app.setErrorHandler(handleError);
    app.get('/', async () => {
      throw error;
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: REMOVED_MEANWHILE,
    });
    await app.close();
  });
});
