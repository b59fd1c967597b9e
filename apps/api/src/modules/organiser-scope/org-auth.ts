/**
 * Authentication of the organiser side (issue 12):
 * - `/v1/org/*`: `Authorization: Bearer <apiKey>`; the key's row is found by its public prefix, then the
 *   SHA-256 hashes are compared in constant time; a key works while not revoked and not past its rotation
 *   overlap (`expiresAt`), and acts as an owner. Or (issue 21) `Bearer <console token>` of a member's
 *   sign-in (POST /v1/console/session): its organisation, and the member's role read now from the members
 *   table (a removed member or a changed role counts at the next request). Each route names its area
 *   (contract `ORG_AREA_ROLES`); a role outside it answers 403 `api.org.role_forbidden`. A holder's access
 *   token is neither (its audience differs) and answers 401. Sets `request.organisation = { id, slug, role }`.
 * - `/v1/admin/*`: `Authorization: Bearer <ADMIN_KEY>`, compared in constant time.
 * Anything else answers 401 `{ message: 'api.unauthorized' }`, as the holder API does.
 * Both set `request.auditActor` (issue 25): who acts (the key's id, the member's account id, the platform admin)
 * and from which IP (`request.ip`, which honours TRUST_PROXY); the services record it with each change.
 *
 * Limits (issue 19, break 8): wrong keys of either kind count against one per-IP bucket of failures
 * (config `keyFailuresPerMinute`); past it they answer 429, and an address past it is locked out of
 * `/v1/admin/*` (the right ADMIN_KEY refused too) until the window ends, so neither an operator-chosen ADMIN_KEY
 * nor an API key prefix can be guessed online (organisation keys are random: a right one still passes). A right organisation key counts against its organisation's
 * bucket (config `orgApiPerMinute`, every key of the organisation together).
 */
import type { FastifyRequest } from 'fastify';
import { ORG_AREA_ROLES, type OrgArea, type OrgRole } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { bearerOf } from '../../lib/http.js';
import { guessGuard, withinLimit, type Limiter, type LimitName } from '../../lib/rate-limit.js';
import { hashKey, prefixOf } from '../organisations/api-keys.js';
import { sameHash, sameSecret } from '../../lib/secrets.js';
import { organisationsRepository as repo } from '../organisations/organisations.repository.js';
import { membersRepository } from '../organisations/members.repository.js';
import type { AuditActor } from '../audit/audit.repository.js';

/**
 * Counts one request against `limiter` (none: no limit); past the limit counts the refusal under `name` and throws.
 * @throws AppError `api.too_many_requests` (429, `Retry-After` in seconds).
 */
async function count(limiter: Limiter | undefined, req: FastifyRequest, name: LimitName): Promise<void> {
  if (limiter) await withinLimit(limiter, req, name);
}

/**
 * The organisation an API key or a member's console token acts on, with which role (a key: owner), and who
 * acts for the audit trail (issue 25).
 */
export interface RequestOrganisation {
  id: number;
  slug: string;
  role: OrgRole;
  actor: AuditActor;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireOrganisation` (an org API key or a member's console token). */
    organisation: RequestOrganisation;
    /** Set by `requireOrganisation` and `requireAdmin`: who acts, from which IP (issue 25). */
    auditActor: AuditActor;
  }
}

/**
 * The organisation whose live key this is, or null; the actor is the key (its id).
 * @param now the request's clock: a rotated key stops working at its `expiresAt`.
 * @param ip the request's IP (`request.ip`)
 */
export async function organisationOfKey(
  database: Database,
  apiKey: string,
  now: Date,
  ip: string | null,
): Promise<RequestOrganisation | null> {
  const prefix = prefixOf(apiKey);
  if (!prefix) return null;
  const hash = hashKey(apiKey);
  const candidates = await repo.liveKeysByPrefix(database.db, prefix, now);
  const match = candidates.find((k) => sameHash(k.keyHash, hash));
  return match
    ? { id: match.organisationId, slug: match.slug, role: 'owner', actor: { kind: 'api_key', id: match.id, ip } }
    : null;
}

/**
 * A console token's account, sign-in, organisation and the sign-in's last proof of presence; provided by the auth
 * module (null: not a live one).
 */
export type AuthenticateConsole = (
  bearer: string,
) => Promise<{ userId: number; sessionId: string; organisationId: number; steppedUpAt: Date | null } | null>;

/**
 * The organisation and the member's current role of a live console token, with the proof of presence of the sign-in
 * it was opened from, or null (not a member any more); the actor is the member's account (user id).
 */
async function organisationOfMember(
  database: Database,
  authenticateConsole: AuthenticateConsole,
  token: string,
  ip: string | null,
): Promise<{ organisation: RequestOrganisation; presence: Date | null } | null> {
  const claims = await authenticateConsole(token);
  if (!claims) return null;
  const member = await membersRepository.membership(database.db, claims.organisationId, claims.userId);
  if (!member) return null;
  const actor: AuditActor = { kind: 'console_member', id: claims.userId, ip };
  const organisation = { id: claims.organisationId, slug: member.slug, role: member.role as OrgRole, actor };
  return { organisation, presence: claims.steppedUpAt };
}

/**
 * The organisation of an API key or a console token, with the proof a step-up route checks (`req.presence`): a
 * key is a machine's, a console token carries its sign-in's; null when it is neither.
 */
async function organisationOfBearer(
  deps: { database: Database; now: () => Date; authenticateConsole: AuthenticateConsole },
  bearer: string,
  ip: string | null,
): Promise<{ organisation: RequestOrganisation; presence: Date | null | 'machine' } | null> {
  if (!prefixOf(bearer)) return organisationOfMember(deps.database, deps.authenticateConsole, bearer, ip);
  const organisation = await organisationOfKey(deps.database, bearer, deps.now(), ip);
  return organisation && { organisation, presence: 'machine' };
}

/** The pre-handler of one area of `/v1/org/*` (see `requireOrganisationWith`). */
export type RequireOrganisation = (area: OrgArea) => (req: FastifyRequest) => Promise<void>;

/**
 * The pre-handlers of `/v1/org/*`, one per area: each requires a live organisation API key or a member's console
 * token whose role the area lets in (contract `ORG_AREA_ROLES`), and sets `req.presence` for the step-up routes
 * (lib/http.ts `requireStepUpWith`, decision 048: an owner's console wants a fresh proof to add a key or a member).
 * @param deps.failures per-IP counter of wrong keys; deps.perOrganisation counter keyed by `req.organisation`.
 * @throws AppError `api.unauthorized` (401) without either, `api.org.role_forbidden` (403) for a role outside the
 *   area, `api.too_many_requests` (429) past either limit.
 */
export function requireOrganisationWith(deps: {
  database: Database;
  now: () => Date;
  authenticateConsole: AuthenticateConsole;
  failures?: Limiter;
  perOrganisation?: Limiter;
}): RequireOrganisation {
  const byArea = new Map<OrgArea, (req: FastifyRequest) => Promise<void>>();
  return (area) => {
    const existing = byArea.get(area);
    if (existing) return existing;
    const allowed: readonly OrgRole[] = ORG_AREA_ROLES[area];
    const requireOrganisation = async (req: FastifyRequest): Promise<void> => {
      const bearer = bearerOf(req);
      const found = bearer ? await organisationOfBearer(deps, bearer, req.ip) : null;
      if (!found) {
        await count(deps.failures, req, 'key_failures');
        throw new AppError('api.unauthorized');
      }
      const { organisation } = found;
      req.organisation = organisation;
      req.presence = found.presence;
      req.auditActor = organisation.actor;
      await count(deps.perOrganisation, req, 'org_api');
      if (!allowed.includes(organisation.role)) throw new AppError('api.org.role_forbidden');
    };
    byArea.set(area, requireOrganisation);
    return requireOrganisation;
  };
}

/**
 * The pre-handler of `/v1/admin/*`: requires `Authorization: Bearer <ADMIN_KEY>`; sets `request.auditActor`.
 * An address past the failures limit is locked out until the window ends, the right key refused too (`guessGuard`,
 * issue 39 item 11): ADMIN_KEY is chosen by the operator, and a limit that still answers the right key only tells
 * a guesser which answers are wrong.
 * @param failures per-IP counter of wrong keys (shared with the organisation API).
 * @throws AppError `api.unauthorized` (401) otherwise, `api.too_many_requests` (429) past the failures limit.
 */
export function requireAdminWith(adminKey: string, failures?: Limiter) {
  const guard = failures ? guessGuard(failures, 'key_failures') : null;
  return async function requireAdmin(req: FastifyRequest): Promise<void> {
    guard?.check(req);
    const key = bearerOf(req);
    if (key && sameSecret(key, adminKey)) {
      req.auditActor = { kind: 'platform_admin', id: null, ip: req.ip };
      return;
    }
    await guard?.wrong(req);
    throw new AppError('api.unauthorized');
  };
}
