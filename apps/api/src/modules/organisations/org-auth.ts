/**
 * Authentication of the organiser side (issue 12):
 * - `/v1/org/*`: `Authorization: Bearer <apiKey>`; the key's row is found by its public prefix, then the
 *   SHA-256 hashes are compared in constant time; a key works while not revoked and not past its rotation
 *   overlap (`expiresAt`). Sets `request.organisation = { id, slug }`.
 * - `/v1/admin/*`: `Authorization: Bearer <ADMIN_KEY>`, compared in constant time.
 * Anything else answers 401 `{ message: 'api.unauthorized' }`, as the holder API does.
 *
 * Limits (issue 19, break 8): wrong keys of either kind count against one per-IP bucket of failures
 * (config `keyFailuresPerMinute`); past it they answer 429, so neither an operator-chosen ADMIN_KEY nor
 * an API key prefix can be guessed online. A right organisation key counts against its organisation's
 * bucket (config `orgApiPerMinute`, every key of the organisation together).
 */
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { bearerOf } from '../../lib/http.js';
import { hashKey, prefixOf, sameHash, sameSecret } from './api-keys.js';
import { organisationsRepository as repo } from './organisations.repository.js';

/** A counter from `app.createRateLimit` (@fastify/rate-limit). */
export type Limiter = (
  req: FastifyRequest,
) => Promise<{ isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number }>;

/**
 * Counts one request against `limiter`; past the limit throws 429.
 * @throws AppError `api.too_many_requests` (429, `Retry-After` in seconds).
 */
async function count(limiter: Limiter | undefined, req: FastifyRequest): Promise<void> {
  if (!limiter) return;
  const counted = await limiter(req);
  if (!counted.isAllowed && counted.isExceeded)
    throw new AppError('api.too_many_requests', {}, { 'retry-after': String(counted.ttlInSeconds) });
}

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
 * @param deps.failures per-IP counter of wrong keys; deps.perOrganisation counter keyed by `req.organisation`.
 * @throws AppError `api.unauthorized` (401) without one, `api.too_many_requests` (429) past either limit.
 */
export function requireOrganisationWith(deps: {
  database: Database;
  now: () => Date;
  failures?: Limiter;
  perOrganisation?: Limiter;
}) {
  return async function requireOrganisation(req: FastifyRequest): Promise<void> {
    const key = bearerOf(req);
    const organisation = key ? await organisationOfKey(deps.database, key, deps.now()) : null;
    if (!organisation) {
      await count(deps.failures, req);
      throw new AppError('api.unauthorized');
    }
    req.organisation = organisation;
    await count(deps.perOrganisation, req);
  };
}

/**
 * The pre-handler of `/v1/admin/*`: requires `Authorization: Bearer <ADMIN_KEY>`.
 * @param failures per-IP counter of wrong keys (shared with the organisation API).
 * @throws AppError `api.unauthorized` (401) otherwise, `api.too_many_requests` (429) past the failures limit.
 */
export function requireAdminWith(adminKey: string, failures?: Limiter) {
  return async function requireAdmin(req: FastifyRequest): Promise<void> {
    const key = bearerOf(req);
    if (key && sameSecret(key, adminKey)) return;
    await count(failures, req);
    throw new AppError('api.unauthorized');
  };
}
