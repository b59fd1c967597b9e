/** Route: GET /org/audit-log, the organisation's audit trail for its owners (issue 25; an API key acts as one). */
import { audit as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { AuditService } from './audit.service.js';

/**
 * Registers GET /org/audit-log.
 * @param deps.requireOwner the organiser scope's pre-handler of its `owner` area (sets `request.organisation`)
 */
export function auditRoutes(app: App, deps: { audit: AuditService; requireOwner: PreHandler }) {
  app.get(
    '/org/audit-log',
    {
      preHandler: deps.requireOwner,
      schema: {
        operationId: 'listAuditLog',
        summary: 'Who changed what in your organisation, newest first, paged by cursor (owners)',
        description:
          'Every change made through the organiser API, the console or by the platform admin: the actor (`api_key` with its prefix, `console_member` with the e-mail, `platform_admin`), the action, the resource (your externalId where it has one), the IP and a small `detail`. Kept `AUDIT_RETENTION_DAYS` (default 365).',
        security: securityOf('organisationApiKey'),
        querystring: contract.auditLogQuery,
        response: { 200: contract.auditPage, ...errors(400, 401, 403) },
      },
    },
    async (req) => deps.audit.list(req.organisation.id, req.query),
  );
}
