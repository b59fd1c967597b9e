/**
 * Routes of the organiser's ticket types (issues 12, 21), `/v1/org/ticket-types...`: upsert (with the type's
 * benefits) by the organiser's own id, and an event's types paged. Owners and staff (area `events`).
 */
import { organisations as contract } from '@tp/contract';
import type { App } from '../../../lib/http.js';
import { errors } from '../../../lib/openapi.js';
import { orgSecurity, sendUpserted, upserted, type OrgRoutesDeps } from './route-parts.js';

/** Registers `/org/ticket-types` and `/org/ticket-types/{externalId}`. */
export function ticketTypesRoutes(app: App, deps: OrgRoutesDeps) {
  const org = { preHandler: deps.requireOrganisation('events') };
  app.put(
    '/org/ticket-types/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertTicketType',
        summary: 'Create or update a ticket type (and its benefits) by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.ticketTypeUpsertRequest,
        response: { ...upserted, ...errors(400, 401, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const status = await deps.org.upsertTicketType(req.organisation, req.params.externalId, req.body);
      return sendUpserted(reply, req.params.externalId, status);
    },
  );
  app.get(
    '/org/ticket-types',
    {
      ...org,
      schema: {
        operationId: 'listOrgTicketTypes',
        summary: "An event's ticket types, paged by cursor",
        security: orgSecurity,
        querystring: contract.ticketTypeListQuery,
        response: { 200: contract.ticketTypePage, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.listTicketTypes(req.organisation, req.query),
  );
}
