/**
 * The audit trail (issue 25, decision 032): who changed what of an organisation, when and from which IP.
 * Written by the API in the same transaction as each change; read by the organisation's owners
 * (`GET /v1/org/audit-log`, the console's Activity page).
 */
import * as z from 'zod';
import { instant } from './fields.js';
import { pageQuery } from './organisations.js';

/**
 * Who acted: the platform admin (`ADMIN_KEY`, `/v1/admin/*`), an organisation API key (`tpk_…`), or a member
 * signed in to the console.
 */
export const AUDIT_ACTOR_KINDS = ['platform_admin', 'api_key', 'console_member'] as const;
export const auditActorKind = z.enum(AUDIT_ACTOR_KINDS);
export type AuditActorKind = z.infer<typeof auditActorKind>;

/**
 * Every action the audit trail records: `<resource>.<what happened>`. An upsert that changed nothing
 * (`unchanged`), a dry-run import and a refused request record nothing.
 */
export const AUDIT_ACTIONS = [
  'organisation.created',
  'branding.updated',
  'api_key.created',
  'api_key.revoked',
  'member.added',
  'member.removed',
  'door_key.created',
  'door_key.revoked',
  'event.created',
  'event.updated',
  'event.cancelled',
  'event.refund_policy',
  'ticket_type.created',
  'ticket_type.updated',
  'ticket.issued',
  'ticket.reissued',
  'ticket.revoked',
  'import.completed',
  'webhook.created',
  'webhook.deleted',
  'webhook.redelivered',
  'exchange.updated',
  'exchange.released',
  'payment.refunded',
  'payment.settled',
  'refund_request.approved',
  'refund_request.declined',
] as const;
export const auditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditAction>;

/**
 * Most tickets one `import.completed` entry names (issue 39): `detail.tickets` lists the first ones the import
 * issued or re-issued (`{ externalId, userTicketId, change: 'issued' | 'reissued', holderId, fromHolderId? }`,
 * account ids, never an e-mail), `detail.ticketsNotNamed` counts the rest, so an import of 10,000 rows stays one
 * small entry.
 */
export const AUDIT_IMPORT_TICKETS_NAMED = 100;

/** What an action was done to; `resourceId` is the organiser's externalId where the resource has one. */
export const AUDIT_RESOURCE_TYPES = [
  'organisation',
  'api_key',
  'member',
  'door_key',
  'event',
  'ticket_type',
  'ticket',
  'import',
  'webhook',
  'order',
  'refund_request',
] as const;
export const auditResourceType = z.enum(AUDIT_RESOURCE_TYPES);
export type AuditResourceType = z.infer<typeof auditResourceType>;

/**
 * Query of GET /v1/org/audit-log: newest first, paged by cursor; `action` keeps one action, `since` (ISO 8601
 * with an offset) the entries at or after that instant.
 */
export const auditLogQuery = pageQuery.extend({
  action: auditAction.optional(),
  since: instant.optional().meta({ description: 'only entries at or after this instant, ISO 8601 with an offset' }),
});
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

/**
 * Who acted, as the log shows it: `id` the API key's id or the member's account id (null for the platform
 * admin); `label` the key's public prefix (`tpk_…`, never the key) or the member's e-mail as they were when the
 * entry was written, kept after the member deletes their account (issue 39); null for the platform admin, and
 * for entries of accounts erased before labels were stored.
 */
export const auditActor = z.object({
  kind: auditActorKind,
  id: z.number().int().nullable(),
  label: z.string().nullable(),
});

/** One entry: `at` ISO 8601 UTC; `detail` a small object (changed field names, counts, ids; never a secret). */
export const auditEntry = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: auditActor,
  action: auditAction,
  resourceType: auditResourceType,
  resourceId: z.string(),
  /**
   * The resource as a person reads it where its id says nothing (issue 41, leftovers point 3): an organisation's
   * name as it is now (`resourceType` `organisation`, whose `resourceId` is its row id); null for the others, whose
   * `resourceId` is the organiser's own id or whose `detail` names them (a key's prefix, a member's e-mail).
   */
  resourceName: z
    .string()
    .nullable()
    .meta({ description: "The resource's name where its id says nothing: an organisation's name; null otherwise." }),
  ip: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntry>;

/** GET /v1/org/audit-log answer: a page of entries, `nextCursor` null on the last. */
export const auditPage = z.object({ items: z.array(auditEntry), nextCursor: z.string().nullable() }).meta({
  examples: [
    {
      items: [
        {
          id: 42,
          at: '2027-01-10T09:30:00.000Z',
          actor: { kind: 'console_member', id: 7, label: 'owner@southern-lights.example' },
          action: 'event.updated',
          resourceType: 'event',
          resourceId: 'evt-2027-sydney',
          resourceName: null,
          ip: '203.0.113.7',
          detail: { fields: ['startsAt', 'endsAt'] },
        },
      ],
      nextCursor: 'eyJpIjo0Mn0',
    },
  ],
});
export type AuditPage = z.infer<typeof auditPage>;
