/**
 * Routes of an organisation's own API keys (issue 21), `/v1/org/api-keys`, from the console or with a key: owners
 * only (contract `ORG_AREA_ROLES`). Create (shown once), list (prefix and dates), revoke. A new key is lasting access:
 * from the console it wants a fresh proof of presence (step-up `api_key`, decision 048); a key's own call does not.
 */
import * as z from 'zod';
import { organisations as contract } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors } from '../../lib/openapi.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { AdminService } from './admin.service.js';
import { orgSecurity } from './org-api/route-parts.js';

/** Registers `/org/api-keys`. */
export function apiKeysRoutes(app: App, deps: { admin: AdminService; requireOrganisation: RequireOrganisation }) {
  const owner = { preHandler: deps.requireOrganisation('owner') };
  app.post(
    '/org/api-keys',
    {
      ...owner,
      config: { stepUp: 'api_key' },
      schema: {
        operationId: 'createOrgApiKey',
        summary: 'A new API key for your machines (shown once); your other keys keep working',
        security: orgSecurity,
        response: { 201: contract.createApiKeyResponse, ...errors(401) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.createKey(req.organisation.id, req.auditActor)),
  );
  app.get(
    '/org/api-keys',
    {
      ...owner,
      schema: {
        operationId: 'listOrgApiKeys',
        summary: 'Your API keys (prefix and dates, never the key)',
        security: orgSecurity,
        response: { 200: z.array(contract.apiKeyItem), ...errors(401) },
      },
    },
    async (req) => deps.admin.listKeys(req.organisation.id),
  );
  app.delete(
    '/org/api-keys/:id',
    {
      ...owner,
      schema: {
        operationId: 'revokeOrgApiKey',
        summary: 'Revoke one of your API keys at once',
        security: orgSecurity,
        params: contract.orgApiKeyParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.admin.revokeKey(req.organisation.id, req.params.id, req.auditActor);
      return reply.code(204).send(null);
    },
  );
}
