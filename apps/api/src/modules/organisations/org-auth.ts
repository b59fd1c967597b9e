/**
 * Authentication of the organiser side (issue 12):
 * - `/v1/org/*`: `Authorization: Bearer <apiKey>`; the key's row is found by its public prefix, then the
 *   SHA-256 hashes are compared in constant time; a key works while not revoked and not past its rotation
 *   overlap (`expiresAt`). Sets `request.organisation = { id, slug }`.
 * - `/v1/admin/*`: `Authorization: Bearer <ADMIN_KEY>`, compared in constant time.
 * Anything else answers 401 `{ message: 'api.unauthorized' }`, as the holder API does.
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { bearerOf } from '../../lib/http.js';
import { hashKey, prefixOf, sameHash, sameSecret } from './api-keys.js';
import { organisationsRepository as repo } from './organisations.repository.js';

/** The organisation an API key belongs to. */
export interface RequestOrganisation {
  id: number;
  slug: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireOrganisation` (org API key auth). */
    organisation: RequestOrganisation;
  }
}

/**
 * The organisation whose live key this is, or null.
 * @param now the request's clock: a rotated key stops working at its `expiresAt`.
 */
export async function organisationOfKey(
  database: Database,
  apiKey: string,
  now: Date,
): Promise<RequestOrganisation | null> {
  const prefix = prefixOf(apiKey);
  if (!prefix) return null;
  const hash = hashKey(apiKey);
  const candidates = await repo.liveKeysByPrefix(database.db, prefix, now);
  const match = candidates.find((k) => sameHash(k.keyHash, hash));
  return match ? { id: match.organisationId, slug: match.slug } : null;
}

/**
 * The pre-handler of `/v1/org/*`: requires a live organisation API key.
 * @throws AppError `api.unauthorized` (401) without one.
 */
export function requireOrganisationWith(deps: { database: Database; now: () => Date }) {
  return async function requireOrganisation(req: FastifyRequest): Promise<void> {
    const key = bearerOf(req);
    const organisation = key ? await organisationOfKey(deps.database, key, deps.now()) : null;
    if (!organisation) throw new AppError('api.unauthorized');
    req.organisation = organisation;
  };
}

/**
 * The pre-handler of `/v1/admin/*`: requires `Authorization: Bearer <ADMIN_KEY>`.
 * @throws AppError `api.unauthorized` (401) otherwise.
 */
export function requireAdminWith(adminKey: string) {
  return function requireAdmin(req: FastifyRequest): Promise<void> {
    const key = bearerOf(req);
    if (!key || !sameSecret(key, adminKey)) return Promise.reject(new AppError('api.unauthorized'));
    return Promise.resolve();
  };
}
