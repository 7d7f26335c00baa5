import type { AuditFilter } from '../audit';

/** The query keys of the audit log screen. */
export const auditKeys = {
  all: ['audit'] as const,
  page: (filter: AuditFilter) =>
    ['audit', filter.from, filter.to, filter.actor, filter.action, filter.cursor] as const,
};
