/**
 * GET /v1/org/audit-log: the organisation's audit trail (issue 25, owners), newest first, a page of 25 from
 * `cursor`, filtered by `action` (empty: any). Never stale: changes made on the other screens a moment ago show
 * when the Activity screen opens.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, type AuditPage } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const auditLogQuery = (action: string, cursor: string | undefined) =>
  queryOptions({
    queryKey: consoleKeys.auditLog.list(action, cursor),
    queryFn: (): Promise<AuditPage> =>
      org.GET('/v1/org/audit-log', {
        params: { query: { action: AUDIT_ACTIONS.find((a) => a === action), cursor, limit: 25 } },
      }),
    staleTime: 0,
  });

export const useAuditLog = (action: string, cursor: string | undefined) => useQuery(auditLogQuery(action, cursor));
