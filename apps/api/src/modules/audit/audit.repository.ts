/**
 * SQL of the audit trail (issue 25, decision 032): `appendAudit` writes one entry inside the caller's
 * transaction (so an entry exists iff the change committed), with who acted as a person reads it (the API key's
 * prefix, the member's e-mail) as it is then; `page` reads an organisation's entries newest first.
 */
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditActorKind, AuditResourceType } from '@tp/contract';
import type { DbOrTx } from '../../db/client.js';
import { auditLog, organisations } from '../../db/schema.js';

/**
 * Who makes a request and from where, derived once per request by the organiser and admin pre-handlers
 * (org-auth.ts): `id` the API key's id, the member's account id, or null for the platform admin (never a key);
 * `ip` Fastify's `request.ip` (honours TRUST_PROXY).
 */
export interface AuditActor {
  kind: AuditActorKind;
  id: number | null;
  ip: string | null;
}

/** One change to record: what was done to which resource, with a small detail (no secrets, ids only). */
export interface AuditChange {
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId: string | number;
  detail?: Record<string, unknown>;
}

/** An entry as read back, with the actor's label stored when it was written. */
export type AuditRow = Awaited<ReturnType<typeof auditRepository.page>>[number];

/**
 * The actor's label as the entry keeps it (issue 39): the API key's public prefix, the member's e-mail, read in
 * the entry's own insert; null for the platform admin. Stored rather than joined when read, so an entry still
 * names its actor after the member deletes their account (the erasure replaces the e-mail; decision 032).
 */
const actorLabel = (actor: AuditActor): SQL | null =>
  actor.id === null
    ? null
    : actor.kind === 'console_member'
      ? sql`(select email from users where id = ${actor.id})`
      : actor.kind === 'api_key'
        ? sql`(select prefix from organisation_api_keys where id = ${actor.id})`
        : null;

/**
 * Records `change` by `actor` on the organisation, inside `tx` (the transaction of the change itself), with the
 * actor's label as it is now (the key's prefix, the member's e-mail).
 * @param at the change's time (UTC)
 */
export async function appendAudit(
  tx: DbOrTx,
  organisationId: number,
  actor: AuditActor,
  at: Date,
  change: AuditChange,
): Promise<void> {
  await tx.insert(auditLog).values({
    organisationId,
    at,
    actorKind: actor.kind,
    actorId: actor.id,
    actorLabel: actorLabel(actor),
    ip: actor.ip,
    action: change.action,
    resourceType: change.resourceType,
    resourceId: String(change.resourceId),
    detail: change.detail ?? {},
  });
}

export const auditRepository = {
  /**
   * Up to `limit` entries of the organisation, newest first (by id), before the entry `beforeId` when given,
   * of one `action` and at or after `since` when given; an entry about an organisation with its name
   * (`organisationName`).
   */
  async page(
    db: DbOrTx,
    q: { organisationId: number; limit: number; beforeId?: number; action?: AuditAction; since?: Date },
  ) {
    const where: SQL[] = [eq(auditLog.organisationId, q.organisationId)];
    if (q.beforeId !== undefined) where.push(lt(auditLog.id, q.beforeId));
    if (q.action) where.push(eq(auditLog.action, q.action));
    if (q.since) where.push(gte(auditLog.at, q.since));
    return db
      .select({
        id: auditLog.id,
        at: auditLog.at,
        actorKind: auditLog.actorKind,
        actorId: auditLog.actorId,
        actorLabel: auditLog.actorLabel,
        action: auditLog.action,
        resourceType: auditLog.resourceType,
        resourceId: auditLog.resourceId,
        /** The name of the organisation the entry is about (its subject), as it is now; null for other subjects. */
        organisationName: organisations.name,
        ip: auditLog.ip,
        detail: auditLog.detail,
      })
      .from(auditLog)
      .leftJoin(
        organisations,
        and(eq(auditLog.resourceType, 'organisation'), sql`${auditLog.resourceId} = ${organisations.id}::text`),
      )
      .where(and(...where))
      .orderBy(desc(auditLog.id))
      .limit(q.limit);
  },
};
