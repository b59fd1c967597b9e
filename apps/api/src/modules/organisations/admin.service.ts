/**
 * The platform admin's rules (issue 12, `/v1/admin/*`): create organisations and rotate or revoke their API
 * keys. A key is shown once and stored as a SHA-256 hash (api-keys.ts). Rotation issues a new key and lets
 * the keys live until then work `KEY_ROTATION_OVERLAP_SECONDS` more (so a deployment can switch without a
 * gap); revocation ends one key at once. Each change is recorded in the organisation's audit trail (issue 25) in
 * its transaction, with the platform admin as actor.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { newApiKey } from './api-keys.js';
import { organisationsRepository as repo } from './organisations.repository.js';
import { membersRepository } from './members.repository.js';
import type { EnsureUser } from './org-api/deps.js';
import { appendAudit, type AuditActor } from '../audit/audit.repository.js';
import { enqueueLogoFetch } from '../../providers/mail/mail-logo.js';

/** How long the previous keys keep working after a rotation, seconds (1 hour). */
export const KEY_ROTATION_OVERLAP_SECONDS = 3600;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// Over 150 lines: the operator's organisation operations; not yet split (issue 43).
export function createAdminService(deps: { database: Database; now: () => Date; ensureUser: EnsureUser }) {
  const db = deps.database.db;

  /** A new key for the organisation, stored hashed; returns the key itself (shown once). */
  async function addKey(tx: DbOrTx, organisationId: number, at: Date) {
    const key = newApiKey();
    const row = await repo.insertKey(tx, { organisationId, prefix: key.prefix, keyHash: key.keyHash, createdAt: at });
    return { id: row.id, prefix: key.prefix, apiKey: key.apiKey };
  }

  return {
    /**
     * POST /v1/admin/organisations: the organisation, its first API key and, with `ownerEmail`, its first owner
     * (issue 21; the account is created when there is none), in one transaction with their audit entries
     * (`organisation.created`, `api_key.created`, `member.added`) and, with a logo, the fetch of its e-mails' copy
     * (providers/mail/mail-logo.ts).
     * @throws AppError `api.org.slug_taken` (409).
     */
    async createOrganisation(input: z.infer<typeof contract.createOrganisationRequest>, actor: AuditActor) {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const org = await repo.insertOrganisation(tx, {
          slug: input.slug,
          name: input.name,
          primaryColor: input.primaryColor ?? null,
          logoUrl: input.logoUrl ?? null,
          website: input.websiteUrl ?? null,
          helpCenterUrl: input.helpCenterUrl ?? null,
          appUrl: input.appUrl ?? null,
          createdAt: at,
        });
        if (!org) throw new AppError('api.org.slug_taken');
        // Its e-mails carry the logo, fetched in the background (issue 41 point 9).
        await enqueueLogoFetch(tx, at, org.id, org.logoUrl);
        const key = await addKey(tx, org.id, at);
        await appendAudit(tx, org.id, actor, at, {
          action: 'organisation.created',
          resourceType: 'organisation',
          resourceId: org.id,
          detail: { slug: org.slug, name: org.name },
        });
        await appendAudit(tx, org.id, actor, at, {
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: key.id,
          detail: { prefix: key.prefix },
        });
        if (input.ownerEmail) {
          const owner = await deps.ensureUser(input.ownerEmail, 'en', tx);
          const member = await membersRepository.insertMember(tx, {
            organisationId: org.id,
            userId: owner.id,
            role: 'owner',
            createdAt: at,
          });
          if (member)
            await appendAudit(tx, org.id, actor, at, {
              action: 'member.added',
              resourceType: 'member',
              resourceId: member.id,
              // By e-mail, as a member added in the console (issue 41 point 12, re-walk: "member 1").
              detail: { userId: owner.id, email: input.ownerEmail, role: 'owner' },
            });
        }
        return { id: org.id, slug: org.slug, apiKey: key.apiKey };
      });
    },

    /**
     * POST /v1/admin/organisations/{id}/api-keys: rotation. The previous live keys stop working
     * `KEY_ROTATION_OVERLAP_SECONDS` from now (sooner if they were already due to). Audited `api_key.created`.
     * @throws AppError `api.org.organisation_not_found` (404).
     */
    async rotateKey(organisationId: number, actor: AuditActor) {
      const at = deps.now();
      return db.transaction(async (tx) => {
        if (!(await repo.organisationById(tx, organisationId))) throw new AppError('api.org.organisation_not_found');
        const key = await addKey(tx, organisationId, at);
        const until = new Date(at.getTime() + KEY_ROTATION_OVERLAP_SECONDS * 1000);
        await repo.expireOtherKeys(tx, organisationId, key.id, until, at);
        await appendAudit(tx, organisationId, actor, at, {
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: key.id,
          detail: { prefix: key.prefix, previousKeysExpireAt: until.toISOString() },
        });
        return { ...key, previousKeysExpireAt: until.toISOString() };
      });
    },

    /**
     * POST /v1/org/api-keys (an owner, issue 21): one more API key for the organisation, shown once; the other
     * keys are left as they are. Audited `api_key.created`. Returns `{ id, prefix, apiKey }`.
     */
    async createKey(organisationId: number, actor: AuditActor) {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const key = await addKey(tx, organisationId, at);
        await appendAudit(tx, organisationId, actor, at, {
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: key.id,
          detail: { prefix: key.prefix },
        });
        return key;
      });
    },

    /**
     * DELETE /v1/admin/organisations/{id}/api-keys/{keyId} and /v1/org/api-keys/{id}: the key stops working at
     * once (idempotent: revoking a revoked key changes and records nothing). Audited `api_key.revoked`.
     * @throws AppError `api.org.api_key_not_found` (404).
     */
    async revokeKey(organisationId: number, keyId: number, actor: AuditActor): Promise<void> {
      const at = deps.now();
      await db.transaction(async (tx) => {
        const outcome = await repo.revokeKey(tx, organisationId, keyId, at);
        if (!outcome) throw new AppError('api.org.api_key_not_found');
        if (outcome.prefix)
          await appendAudit(tx, organisationId, actor, at, {
            action: 'api_key.revoked',
            resourceType: 'api_key',
            resourceId: keyId,
            detail: { prefix: outcome.prefix },
          });
      });
    },

    /**
     * GET /v1/admin/organisations/{id}/api-keys and /v1/org/api-keys: every key with its prefix and dates (never the
     * key).
     * @throws AppError `api.org.organisation_not_found` (404).
     */
    async listKeys(organisationId: number) {
      if (!(await repo.organisationById(db, organisationId))) throw new AppError('api.org.organisation_not_found');
      const rows = await repo.keysOf(db, organisationId);
      return rows.map((k) => ({
        id: k.id,
        prefix: k.prefix,
        createdAt: k.createdAt.toISOString(),
        expiresAt: iso(k.expiresAt),
        revokedAt: iso(k.revokedAt),
      }));
    },

    /** A new key for the organisation with this slug (the demo seed), undefined when there is none; shown once. */
    async addKeyBySlug(slug: string) {
      const org = await repo.organisationBySlug(db, slug);
      return org ? addKey(db, org.id, deps.now()) : undefined;
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
