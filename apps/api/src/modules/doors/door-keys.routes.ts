/**
 * Routes of door keys (issue 20 point 4), under `/v1/org/door-keys` with the organisation API key: create
 * (`{ name, eventExternalIds? }` → 201 `{ id, key }`, the key shown once), list (never the key), revoke.
 */
import * as z from 'zod';
import { doorKeys as contract } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { DoorKeysService } from './door-keys.service.js';

const security = securityOf('organisationApiKey');

export function doorKeysRoutes(
  app: App,
  deps: { doorKeys: DoorKeysService; requireOrganisation: RequireOrganisation },
) {
  const preHandler = deps.requireOrganisation('door');
  app.post(
    '/org/door-keys',
    {
      preHandler,
      schema: {
        summary: 'A door key for your scanners (shown once): your events only, or the ones named',
        security,
        body: contract.createDoorKeyRequest,
        response: { 201: contract.createDoorKeyResponse, ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.doorKeys.create(req.organisation, req.body)),
  );
  app.get(
    '/org/door-keys',
    {
      preHandler,
      schema: {
        summary: 'Your live door keys (prefix, name and events; never the key)',
        security,
        response: { 200: z.array(contract.doorKeyItem), ...errors(401) },
      },
    },
    async (req) => deps.doorKeys.list(req.organisation),
  );
  app.delete(
    '/org/door-keys/:id',
    {
      preHandler,
      schema: {
        summary: 'Revoke a door key at once',
        security,
        params: contract.doorKeyParams,
        response: { 204: z.null(), ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => {
      await deps.doorKeys.revoke(req.organisation, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
