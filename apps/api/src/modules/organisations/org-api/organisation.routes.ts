/**
 * Routes of the organisation's brand (issue 21), `/v1/org/organisation`: read it (every role) and change it
 * (owners).
 */
import { organisations as contract } from '@tp/contract';
import type { App } from '../../../lib/http.js';
import { errors } from '../../../lib/openapi.js';
import { orgSecurity, type OrgRoutesDeps } from './route-parts.js';

/** Registers GET and PATCH `/org/organisation`. */
export function organisationRoutes(app: App, deps: OrgRoutesDeps) {
  app.get(
    '/org/organisation',
    {
      preHandler: deps.requireOrganisation('read'),
      schema: {
        operationId: 'getOrganisation',
        summary: "Your organisation's brand: name, logo, colour and links",
        security: orgSecurity,
        response: { 200: contract.organisationItem, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getOrganisation(req.organisation),
  );
  app.patch(
    '/org/organisation',
    {
      preHandler: deps.requireOrganisation('owner'),
      schema: {
        operationId: 'updateOrganisation',
        summary: "Change your organisation's brand (the panel shows it within a minute)",
        security: orgSecurity,
        body: contract.updateOrganisationRequest,
        response: { 200: contract.organisationItem, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.updateOrganisation(req.organisation, req.body),
  );
}
