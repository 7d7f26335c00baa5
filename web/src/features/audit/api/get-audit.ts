import { type AuditPage, auditPageSchema } from '@doctors-portal/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, decodeAnswer } from '../../../lib/api-client';
import { type AuditFilter, querySearchOf } from '../audit';
import { auditKeys } from './keys';

/**
 * `GET /api/audit?from=&to=&actor=&action=&cursor=` (administrators): one page of the audit log,
 * newest first, and the cursor of the next.
 */
export async function getAudit(filter: AuditFilter, signal?: AbortSignal): Promise<AuditPage> {
  const search = new URLSearchParams(querySearchOf(filter));
  const answer = await api<unknown>(`/audit${search.size > 0 ? `?${search}` : ''}`, { signal });
  return decodeAnswer(auditPageSchema, answer);
}

/** A page of the log; the previous page stays on screen while the next one loads. */
export const auditQuery = (filter: AuditFilter) =>
  queryOptions({
    queryKey: auditKeys.page(filter),
    queryFn: ({ signal }) => getAudit(filter, signal),
    placeholderData: keepPreviousData,
  });
