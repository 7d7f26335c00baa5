import { type IsoDate, paths, slotStartMinutes } from '@doctors-portal/contract';
import { loadAuthSecret } from '../auth/secret.js';
import { clinicInstant, clock } from '../bookings/clock.js';
import type { Config } from '../config/env.js';
import { type VisitLinkSigner, visitLinkSigner } from './links.js';

/** The booking a mail's links are for, as the mail queue knows it when it writes the mail. */
export interface LinkedBooking {
  id: string;
  sequence: number;
  date: IsoDate;
  slot: string;
}

/** The signer of this portal's links: under its auth secret, as every instance shares it. */
export function visitLinkSignerOf(config: Config): VisitLinkSigner {
  return visitLinkSigner(loadAuthSecret(config.auth.secret, config.dataDir));
}

/**
 * The instant a visit starts, when its links stop working: the clinic's wall clock, DST
 * included. A slot that names no time counts from the start of its day.
 */
export function visitStart(timeZone: string, date: IsoDate, slot: string): number {
  return clinicInstant(timeZone, date, slotStartMinutes(slot) ?? 0).getTime();
}

/**
 * The Confirm, Reschedule and Cancel links of a confirmation or reminder mail, made as the mail
 * is written (no token is ever stored); none for a visit that has started.
 */
export function mailActionLinks(config: Config, signer = visitLinkSignerOf(config)) {
  return async (booking: LinkedBooking) => {
    const expiresAt = visitStart(config.clinic.timeZone, booking.date, booking.slot);
    if (expiresAt <= clock.now().getTime()) return null;
    const link = (action: 'confirm' | 'reschedule' | 'cancel') =>
      `${config.publicUrl}${paths.visit(
        signer.sign({ bookingId: booking.id, action, sequence: booking.sequence, expiresAt }),
      )}`;
    return { confirm: link('confirm'), reschedule: link('reschedule'), cancel: link('cancel') };
  };
}
