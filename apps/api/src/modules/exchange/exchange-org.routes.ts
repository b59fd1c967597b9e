/**
 * The organiser's routes of the exchange queue (issue 45, decision 042), `/v1/org/events/{externalId}/exchange`:
 * its settings and counts (GET, PUT) and releases of stock (POST `.../releases`). Owners and staff (area `events`).
 */
import { exchange as contract, organisations } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { ExchangeOrgService } from './exchange-org.service.js';

const security = securityOf('organisationApiKey');

/** Registers `/org/events/{externalId}/exchange` and its releases. */
export function exchangeOrgRoutes(
  app: App,
  deps: { exchangeOrg: ExchangeOrgService; requireOrganisation: RequireOrganisation },
) {
  const preHandler = deps.requireOrganisation('events');
  const params = organisations.externalIdParams;
  app.get(
    '/org/events/:externalId/exchange',
    {
      preHandler,
      schema: {
        operationId: 'getEventExchange',
        summary: "The event's exchange queue: its settings and, per ticket type, entries, offers, returns and sales",
        security,
        params,
        response: { 200: contract.exchangeOverview, ...errors(401, 404) },
      },
    },
    async (req) => deps.exchangeOrg.get(req.organisation, req.params.externalId),
  );
  app.put(
    '/org/events/:externalId/exchange',
    {
      preHandler,
      schema: {
        operationId: 'putEventExchange',
        summary: "Turn the event's face-value exchange queue on or off, and set its rules",
        security,
        params,
        body: contract.exchangeSettingsRequest,
        response: { 200: contract.exchangeOverview, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => deps.exchangeOrg.put(req.organisation, req.params.externalId, req.body),
  );
  app.post(
    '/org/events/:externalId/exchange/releases',
    {
      preHandler,
      schema: {
        operationId: 'releaseToExchange',
        summary: 'Release tickets of a type into the exchange queue, offered to the next entries that fit',
        security,
        params,
        body: contract.exchangeReleaseRequest,
        response: { 201: contract.exchangeReleaseResponse, ...errors(400, 401, 404, 409, 422) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await deps.exchangeOrg.release(req.organisation, req.params.externalId, req.body)),
  );
}
