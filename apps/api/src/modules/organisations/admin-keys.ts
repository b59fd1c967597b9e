/**
 * The organisation's API keys as the platform admin and an owner manage them (issues 12, 21, `/v1/admin/*` and
 * `/v1/org/api-keys`): rotate, create, revoke and list. A key is shown once and stored as a SHA-256 hash
 * (api-keys.ts); each change is recorded in the organisation's audit trail in its transaction.
 */
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { newApiKey } from './api-keys.js';
import { organisationsRepository as repo } from './organisations.repository.js';
import { appendAudit, type AuditActor } from '../audit/audit.repository.js';

/** How long the previous keys keep working after a rotation, seconds (1 hour). */
export const KEY_ROTATION_OVERLAP_SECONDS = 3600;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A new key for the organisation, stored hashed; returns the key itself (shown once). */
export async function addKey(tx: DbOrTx, organisationId: number, at: Date) {
  const key = newApiKey();
  const row = await repo.insertKey(tx, { organisationId, prefix: key.prefix, keyHash: key.keyHash, createdAt: at });
  return { id: row.id, prefix: key.prefix, apiKey: key.apiKey };
}

/** The key operations of the admin service: `rotateKey`, `createKey`, `revokeKey`, `listKeys`, `addKeyBySlug`. */
export function createAdminKeys(deps: { database: Database; now: () => Date }) {
  const db = deps.database.db;

  return {
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
