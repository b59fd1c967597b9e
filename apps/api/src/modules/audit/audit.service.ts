/**
 * The audit trail's reads (issue 25, decision 032): an organisation's entries for its owners, newest first,
 * paged by cursor like the other organiser lists (`lib/cursor.ts`). The entries are written by the services
 * that make each change (`appendAudit`, in the change's transaction).
 */
import type { AuditAction, AuditActorKind, AuditEntry, AuditPage, audit as contract } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { idCursor, paged } from '../../lib/cursor.js';
import { auditRepository as repo, type AuditRow } from './audit.repository.js';

/**
 * An entry as the API answers it: the actor's label is the key's prefix or the member's e-mail as they were when
 * the entry was written, kept after the member's account is deleted (issue 39; null for the platform admin, and
 * for entries of accounts erased before labels were stored, migration 0018).
 */
function entryOf(r: AuditRow): AuditEntry {
  const kind = r.actorKind as AuditActorKind;
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: { kind, id: r.actorId, label: r.actorLabel },
    action: r.action as AuditAction,
    resourceType: r.resourceType as AuditEntry['resourceType'],
    resourceId: r.resourceId,
    // An organisation is named, not numbered (issue 41, leftovers point 3): "Aotearoa Sound", not "organisation 2".
    resourceName: r.organisationName,
    ip: r.ip,
    detail: r.detail,
  };
}

export function createAuditService(deps: { database: Database }) {
  const { db } = deps.database;
  return {
    /**
     * GET /org/audit-log: the organisation's entries, newest first; `action` and `since` filter.
     * @throws AppError `api.org.invalid_cursor` (400).
     */
    async list(organisationId: number, q: contract.AuditLogQuery): Promise<AuditPage> {
      const rows = await repo.page(db, {
        organisationId,
        limit: q.limit + 1,
        beforeId: idCursor(q.cursor),
        action: q.action,
        since: q.since ? new Date(q.since) : undefined,
      });
      return paged(rows, q.limit, (r) => ({ i: r.id }), entryOf);
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
