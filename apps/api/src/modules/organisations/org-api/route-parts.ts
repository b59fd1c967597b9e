/**
 * What the organiser API's route files (`org-api/*.routes.ts`) share: their dependencies, the organisation key's
 * security and an upsert's answers (200 `updated` or `unchanged`, 201 `created`).
 */
import type { FastifyReply } from 'fastify';
import type * as z from 'zod';
import { organisations as contract } from '@tp/contract';
import { securityOf } from '../../../lib/openapi.js';
import type { RequireOrganisation } from '../../organiser-scope/org-auth.js';
import type { OrgApiService } from '../org-api.service.js';

/** The dependencies of each `org-api/*.routes.ts`: the organisation API's service and the scope's pre-handler. */
export interface OrgRoutesDeps {
  org: OrgApiService;
  requireOrganisation: RequireOrganisation;
}

/** The OpenAPI security of `/org/*`: an organisation API key or a member's console token. */
export const orgSecurity = securityOf('organisationApiKey');

/** The answers of a PUT by the organiser's own id. */
export const upserted = { 200: contract.upsertResponse, 201: contract.upsertResponse };

/**
 * Answers a PUT by the organiser's own id (`upserted`): 201 when the row was `created`, else 200 (`updated` or
 * `unchanged`), with `{ externalId, status }`.
 */
export const sendUpserted = (reply: FastifyReply, externalId: string, status: z.infer<typeof contract.upsertStatus>) =>
  reply.code(status === 'created' ? 201 : 200).send({ externalId, status });
