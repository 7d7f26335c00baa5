import { addDays, type IsoDate, LAST_DATE } from '@doctors-portal/contract';
import { type Kysely, sql } from 'kysely';
import { clinicInstant } from '../bookings/clock.js';
import type { AuditLogTable, Database } from '../db/schema.js';

/** What `GET /api/audit` asks for, as its query schema decoded it. */
export interface AuditFilter {
  from?: IsoDate | undefined;
  to?: IsoDate | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** The moment a day begins in the clinic's time zone, as an ISO time. */
export function startOfClinicDay(date: IsoDate, timeZone: string): string {
  return clinicInstant(timeZone, date).toISOString();
}

/** A page's position: the time and id of its last entry. */
export function encodeCursor(row: Pick<AuditLogTable, 'at' | 'id'>): string {
  return Buffer.from(`${row.at}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } | null {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || rest.length > 0 || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}

/** The kinds of actor `actor` names as such, in any case, rather than as text to look for. */
const ACTOR_KINDS: readonly AuditLogTable['actor_kind'][] = ['admin', 'patient', 'system'];

/** `text` for a LIKE pattern, in which `%`, `_` and `\\` match only themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One page of the audit log, newest first, and the cursor of the next page (null at the end).
 * Dates are the clinic's days; `actor` is a kind of actor ('patient', 'admin' or 'system'), or
 * an account's id, part of its name or email; `action` a name or a family such as `booking.*`.
 * Null for a cursor it never gave.
 */
export async function listAudit(
  db: Kysely<Database>,
  timeZone: string,
  filter: AuditFilter,
): Promise<{ rows: AuditLogTable[]; nextCursor: string | null } | null> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.from) query = query.where('at', '>=', startOfClinicDay(filter.from, timeZone));
  // Up to the start of the day after `to`; the last date has none, and bounds nothing.
  if (filter.to && filter.to < LAST_DATE) {
    query = query.where('at', '<', startOfClinicDay(addDays(filter.to, 1), timeZone));
  }
  const actor = filter.actor?.trim();
  if (actor) {
    const kind = ACTOR_KINDS.find((name) => name === actor.toLowerCase());
    if (kind) {
      query = query.where('actor_kind', '=', kind);
    } else {
      const pattern = `%${escapeLike(actor.toLowerCase())}%`;
      query = query.where((eb) =>
        eb.or([
          eb('actor_id', '=', actor),
          sql<boolean>`lower(actor_name) like ${pattern} escape '\\'`,
          sql<boolean>`lower(actor_email) like ${pattern} escape '\\'`,
        ]),
      );
    }
  }
  if (filter.action) {
    const family = filter.action.endsWith('.*') ? filter.action.slice(0, -2) : null;
    query = family
      ? query.where(sql<boolean>`action like ${`${escapeLike(family)}.%`} escape '\\'`)
      : query.where('action', '=', filter.action);
  }
  if (filter.cursor) {
    const after = decodeCursor(filter.cursor);
    if (!after) return null;
    query = query.where((eb) =>
      eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]),
    );
  }
  const rows = await query
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit + 1)
    .execute();
  const more = rows.length > filter.limit;
  const page = more ? rows.slice(0, filter.limit) : rows;
  const last = page.at(-1);
  return { rows: page, nextCursor: more && last ? encodeCursor(last) : null };
}

/** The entries an account made, oldest first, for its owner's own data. */
export async function auditEntriesBy(db: Kysely<Database>, actorId: string) {
  return db
    .selectFrom('audit_log')
    .select(['at', 'action', 'subject_type', 'subject_id', 'subject_label', 'before', 'after'])
    .where('actor_id', '=', actorId)
    .orderBy('at')
    .execute();
}
