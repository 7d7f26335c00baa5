import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { VISIT_LINK_ACTIONS, type VisitLinkAction } from '@doctors-portal/contract';

/** What a one-tap link says: which booking, what to do, and until when. */
export interface VisitLinkClaims {
  bookingId: string;
  action: VisitLinkAction;
  /** The booking's calendar sequence when the mail was written: a move makes the link stale. */
  sequence: number;
  /** When the link stops working (the visit's start), in milliseconds since the epoch. */
  expiresAt: number;
  /** The link's own random id: using the link records it, so that it works once. */
  id: string;
}

export interface VisitLinkSigner {
  /** The token of a new link (a fresh random id each call). */
  sign(claims: Omit<VisitLinkClaims, 'id'>): string;
  /** The claims of a token this signer made, or null for anything else (forged, garbled). */
  verify(token: string): VisitLinkClaims | null;
}

/** The longest token `verify` reads: anything longer was not made here. */
const MAX_TOKEN_LENGTH = 512;
/** An HMAC-SHA256 in base64url: 32 bytes, 43 characters. */
const SIGNATURE_LENGTH = 43;
const BASE64URL = /^[\w-]+$/;

/**
 * Signed links for the patient's mail. The token is the claims as a base64url JSON array
 * followed by the HMAC-SHA256 of that text, under a key of its own derived from the auth secret (so a link can
 * never pass for a session token or the reverse). Nothing is stored when a link is made: the
 * database only remembers the ids of links that were used.
 */
export function visitLinkSigner(secret: string): VisitLinkSigner {
  const key = createHmac('sha256', secret).update('visit-links').digest();
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();

  return {
    sign({ bookingId, action, sequence, expiresAt }) {
      const id = randomBytes(16).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify([bookingId, action, sequence, expiresAt, id]),
      ).toString('base64url');
      // The signature is of fixed length: no separator, so the token is one URL-safe word.
      return `${payload}${mac(payload).toString('base64url')}`;
    },
    verify(token) {
      if (token.length > MAX_TOKEN_LENGTH || !BASE64URL.test(token)) return null;
      const payload = token.slice(0, -SIGNATURE_LENGTH);
      // Compared as text: base64url's last character carries two unused bits, so decoding would
      // take a link with them changed for the one this server made.
      const given = Buffer.from(token.slice(-SIGNATURE_LENGTH));
      const expected = Buffer.from(mac(payload).toString('base64url'));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      return claimsOf(payload);
    },
  };
}

/** The claims of a payload this server signed (checked all the same: a key may be reused). */
function claimsOf(payload: string): VisitLinkClaims | null {
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(fields) || fields.length !== 5) return null;
  const [bookingId, action, sequence, expiresAt, id] = fields as unknown[];
  if (
    typeof bookingId !== 'string' ||
    !VISIT_LINK_ACTIONS.includes(action as VisitLinkAction) ||
    !Number.isInteger(sequence) ||
    !Number.isInteger(expiresAt) ||
    typeof id !== 'string'
  ) {
    return null;
  }
  return {
    bookingId,
    action: action as VisitLinkAction,
    sequence: sequence as number,
    expiresAt: expiresAt as number,
    id,
  };
}
