import { type VisitLinkAction, visitLinkMessages } from '@doctors-portal/contract';
import type { Kysely } from 'kysely';
import { bookingSubject, patientActor, recordAudit } from '../audit/log.js';
import type { CurrentUser } from '../auth/current-user.js';
import { findBooking, setVisitStatus } from '../bookings/repository.js';
import type { Transact } from '../db/group-commit.js';
import type { Booking, Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { VisitLinkClaims, VisitLinkSigner } from './links.js';

/**
 * What a one-tap link may do, and the one use it allows: each rule throws an HttpError with the
 * message the visit's page shows (404 not valid, 410 expired, 409 used or no longer possible).
 */

/** A link that may be used now, and its booking as it is. */
export interface OpenLink {
  claims: VisitLinkClaims;
  booking: Booking;
}

/**
 * The link of `token` and its booking, when the link may be used at `now` (ms) for `action`
 * (any, when left out): signed here, for a booking that exists, not expired, not used, the
 * booking not moved since the mail (its sequence), and still booked or confirmed with its
 * patient's account.
 */
export async function openLink(
  db: Kysely<Database>,
  signer: VisitLinkSigner,
  token: string,
  now: number,
  action?: VisitLinkAction,
): Promise<OpenLink> {
  const claims = signer.verify(token);
  if (!claims || (action && claims.action !== action)) {
    throw new HttpError(404, visitLinkMessages.invalid);
  }
  const booking = await findBooking(db, claims.bookingId);
  if (!booking) throw new HttpError(404, visitLinkMessages.invalid);
  if (claims.expiresAt <= now) throw new HttpError(410, visitLinkMessages.expired);
  if (await isLinkUsed(db, claims.id)) throw new HttpError(409, visitLinkMessages.used);
  if (booking.status === 'cancelled') throw new HttpError(409, visitLinkMessages.cancelled);
  if (booking.sequence !== claims.sequence) throw new HttpError(409, visitLinkMessages.moved);
  const live = booking.status === 'booked' || booking.status === 'confirmed';
  if (!live || booking.patient_id === null) throw new HttpError(409, visitLinkMessages.closed);
  return { claims, booking };
}

async function isLinkUsed(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('visit_link_use')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records the link as used, in the transaction of what it does: a second use, even a
 * concurrent one, breaks the primary key and rolls its action back.
 */
export async function useLink(tx: Kysely<Database>, claims: VisitLinkClaims): Promise<void> {
  await tx
    .insertInto('visit_link_use')
    .values({
      id: claims.id,
      booking_id: claims.bookingId,
      action: claims.action,
      used_at: new Date().toISOString(),
    })
    .execute();
}

/**
 * Runs a link's action, answering 409 'already used' when it failed because the link was used
 * meanwhile (its id recorded by a concurrent use, whatever the action then tripped over).
 */
export async function usingLinkOnce<T>(
  db: Kysely<Database>,
  claims: VisitLinkClaims,
  action: () => Promise<T>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (await isLinkUsed(db, claims.id)) throw new HttpError(409, visitLinkMessages.used);
    throw error;
  }
}

/** The booking's patient, as the booking rules see a caller: the link stands for them. */
export function linkPatient(booking: Booking): CurrentUser {
  return {
    id: booking.patient_id ?? '',
    sessionId: '',
    email: booking.patient_email,
    name: booking.patient_name,
    image: null,
    emailVerified: true,
    role: 'patient',
  };
}

/**
 * Confirms the visit: booked becomes confirmed (audited as the patient's change), in the
 * transaction that uses the link. A visit already confirmed stays so, the link used all the same.
 */
export async function confirmVisit(
  transact: Transact,
  { claims, booking }: OpenLink,
): Promise<void> {
  await transact(async (tx) => {
    await useLink(tx, claims);
    if (await setVisitStatus(tx, booking.id, 'confirmed', ['booked'])) {
      await recordAudit(tx, {
        actor: patientActor(linkPatient(booking)),
        action: 'booking.status',
        subject: bookingSubject(booking),
        before: { status: 'booked' },
        after: { status: 'confirmed' },
      });
    }
    // Cancelled or moved since the link was opened: the link stays unused.
    const now = await findBooking(tx, booking.id);
    if (!now || now.status === 'cancelled') throw new HttpError(409, visitLinkMessages.cancelled);
    if (now.status !== 'confirmed') throw new HttpError(409, visitLinkMessages.closed);
    if (now.sequence !== claims.sequence) throw new HttpError(409, visitLinkMessages.moved);
  });
}
