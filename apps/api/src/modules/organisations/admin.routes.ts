/**
 * Routes of the platform admin (issue 12), `/v1/admin/organisations...` with `Authorization: Bearer <ADMIN_KEY>`:
 * create an organisation (its first API key shown once), rotate, list and revoke its API keys.
 */
import * as z from 'zod';
import { organisations as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { AdminService } from './admin.service.js';

const adminSecurity = securityOf('adminKey');

/** Registers the admin routes of organisations; `requireAdmin` is the organiser scope's admin pre-handler. */
export function adminRoutes(app: App, deps: { admin: AdminService; requireAdmin: PreHandler }) {
  const admin = { preHandler: deps.requireAdmin };
  app.post(
    '/admin/organisations',
    {
      ...admin,
      schema: {
        operationId: 'createOrganisation',
        summary: 'Create an organisation and its first API key (shown once)',
        security: adminSecurity,
        body: contract.createOrganisationRequest,
        response: { 201: contract.createOrganisationResponse, ...errors(401, 409) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.createOrganisation(req.body, req.auditActor)),
  );
  app.post(
    '/admin/organisations/:id/api-keys',
    {
      ...admin,
      schema: {
        operationId: 'rotateApiKey',
        summary: 'Rotate: a new API key; the previous keys keep working one hour',
        security: adminSecurity,
        params: contract.organisationParams,
        response: { 201: contract.rotateApiKeyResponse, ...errors(401, 404) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.rotateKey(req.params.id, req.auditActor)),
  );
  app.get(
    '/admin/organisations/:id/api-keys',
    {
      ...admin,
      schema: {
        operationId: 'listApiKeys',
        summary: "An organisation's API keys (prefix and dates, never the key)",
        security: adminSecurity,
        params: contract.organisationParams,
        response: { 200: z.array(contract.apiKeyItem), ...errors(401, 404) },
      },
    },
    async (req) => deps.admin.listKeys(req.params.id),
  );
  app.delete(
    '/admin/organisations/:id/api-keys/:keyId',
    {
      ...admin,
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key at once',
        security: adminSecurity,
        params: contract.apiKeyParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.admin.revokeKey(req.params.id, req.params.keyId, req.auditActor);
      return reply.code(204).send(null);
    },
  );
}
