/**
 * Door keys per organisation (issue 20 point 4; decision 020): `tpd_<8 characters>_<43
 * characters>`, 256 random bits, shown once and stored as SHA-256 like the organisation API keys
 * (organisations/api-keys.ts). A door scanner presents one in `x-scanner-key`; `/v1/access/*` then sees only the
 * organisation's events, or the events named when the key was made. Revocation works at the next request
 * (nothing is cached). Creation and revocation are recorded in the audit trail (issue 25) in their transaction.
 */
import { randomBytes } from 'node:crypto';
import type { doorKeys as contract } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { sameHash, sha256Hex as hashKey } from '../../lib/secrets.js';
import { doorKeysRepository as repo } from './door-keys.repository.js';
import type { RequestOrganisation } from '../organiser-scope/org-auth.js';
import { appendAudit } from '../audit/audit.repository.js';

const DOOR_KEY_SHAPE = /^(tpd_[A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{43}$/;

/**
 * What a door key admits to: the key's id, its organisation and its events (null: every event of the
 * organisation).
 */
export interface DoorKeyScope {
  doorKeyId: number;
  organisationId: number;
  eventIds: number[] | null;
  name: string;
  mode: contract.DoorKeyItem['mode'];
  zone: string | null;
}

export function createDoorKeysService(deps: { database: Database; now: () => Date }) {
  const { db } = deps.database;
  return {
    /**
     * POST /org/door-keys: a new door key for the organisation, limited to `eventExternalIds` when given, with its
     * `mode` (default `entry`) and `zone` (default none).
     * @returns `{ id, key }`; the key is never shown again.
     * @throws AppError `api.org.event_not_found` (404) when one of the events is not the organisation's.
     */
    async create(
      org: RequestOrganisation,
      body: contract.CreateDoorKeyRequest,
    ): Promise<contract.CreateDoorKeyResponse> {
      let eventIds: number[] | null = null;
      if (body.eventExternalIds) {
        const wanted = [...new Set(body.eventExternalIds)];
        const found = await repo.eventsByExternalIds(db, org.id, wanted);
        if (found.length !== wanted.length) throw new AppError('api.org.event_not_found');
        eventIds = found.map((e) => e.id).sort((a, b) => a - b);
      }
      const prefix = `tpd_${randomBytes(6).toString('base64url')}`;
      const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
      const at = deps.now();
      const id = await db.transaction(async (tx) => {
        const inserted = await repo.insert(tx, {
          organisationId: org.id,
          name: body.name,
          prefix,
          keyHash: hashKey(key),
          eventIds,
          mode: body.mode ?? 'entry',
          zone: body.zone ?? null,
          createdAt: at,
        });
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'door_key.created',
          resourceType: 'door_key',
          resourceId: inserted,
          detail: {
            prefix,
            events: body.eventExternalIds ?? null,
            mode: body.mode ?? 'entry',
            zone: body.zone ?? null,
          },
        });
        return inserted;
      });
      return { id, key };
    },

    /** GET /org/door-keys: the organisation's live door keys (prefix, name, events; never the key). */
    async list(org: RequestOrganisation): Promise<contract.DoorKeyItem[]> {
      const rows = await repo.liveOf(db, org.id);
      const externals = new Map(
        (await repo.externalIdsOf(db, [...new Set(rows.flatMap((r) => r.eventIds ?? []))])).map((e) => [
          e.id,
          e.externalId ?? String(e.id),
        ]),
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        prefix: r.prefix,
        eventExternalIds: r.eventIds ? r.eventIds.map((id) => externals.get(id) ?? String(id)) : null,
        mode: r.mode,
        zone: r.zone,
        createdAt: r.createdAt.toISOString(),
      }));
    },

    /**
     * DELETE /org/door-keys/{id}: revokes the key at once; audited `door_key.revoked`.
     * @throws AppError `api.org.door_key_not_found` (404; a revoked key too).
     */
    async revoke(org: RequestOrganisation, id: number): Promise<void> {
      const at = deps.now();
      await db.transaction(async (tx) => {
        if (!(await repo.revoke(tx, org.id, id, at))) throw new AppError('api.org.door_key_not_found');
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'door_key.revoked',
          resourceType: 'door_key',
          resourceId: id,
        });
      });
    },

    /**
     * What a presented door key admits to, or null when it is not a live door key (hashes compared in
     * constant time after the row is found by the key's public prefix).
     */
    async scopeOf(key: string): Promise<DoorKeyScope | null> {
      const prefix = DOOR_KEY_SHAPE.exec(key)?.[1];
      if (!prefix) return null;
      const hash = hashKey(key);
      const match = (await repo.liveByPrefix(db, prefix)).find((k) => sameHash(k.keyHash, hash));
      return match
        ? {
            doorKeyId: match.id,
            organisationId: match.organisationId,
            eventIds: match.eventIds,
            name: match.name,
            mode: match.mode,
            zone: match.zone,
          }
        : null;
    },
  };
}
export type DoorKeysService = ReturnType<typeof createDoorKeysService>;
