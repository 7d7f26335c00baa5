import { AuditPage } from '../../features/audit/components/audit-page';

/** /dashboard/audit (admin): the audit log of every change people and the server made. */
export default function AuditRoute() {
  return <AuditPage />;
}
