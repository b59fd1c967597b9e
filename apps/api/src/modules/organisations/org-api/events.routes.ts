/**
 * Routes of the organiser's events (issues 12, 21), `/v1/org/events...`: upsert by the organiser's own id, list,
 * read one, its attendees as CSV, its attendance and its check-ins, and how many holders a change of its time or place
 * would e-mail (issue 46). Owners and staff (area `events`).
 */
import { organisations as contract } from '@tp/contract';
import type { App } from '../../../lib/http.js';
import { errors, media } from '../../../lib/openapi.js';
import { pickLang } from '../../../lib/lang.js';
import { orgSecurity, sendUpserted, upserted, type OrgRoutesDeps } from './route-parts.js';

/** Registers `/org/events` and `/org/events/{externalId}...`. */
export function eventsRoutes(app: App, deps: OrgRoutesDeps) {
  const org = { preHandler: deps.requireOrganisation('events') };
  app.put(
    '/org/events/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertEvent',
        summary: 'Create or update an event by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        querystring: contract.eventUpsertQuery,
        body: contract.eventUpsertRequest,
        response: { ...upserted, ...errors(400, 401, 409) },
      },
    },
    async (req, reply) => {
      const notify = req.query.notify !== 'false';
      const status = await deps.org.upsertEvent(req.organisation, req.params.externalId, req.body, { notify });
      return sendUpserted(reply, req.params.externalId, status);
    },
  );
  app.post(
    '/org/events/:externalId/cancel',
    {
      ...org,
      schema: {
        operationId: 'cancelEvent',
        summary: 'Cancel an event (dryRun: say what it would touch): its tickets stop admitting, holders are told',
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.eventCancelRequest,
        response: { 200: contract.eventCancelResponse, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => deps.org.cancel(req.organisation, req.params.externalId, req.body),
  );
  app.get(
    '/org/events',
    {
      ...org,
      schema: {
        operationId: 'listOrgEvents',
        summary: "The organisation's events, upcoming (soonest first) or past (latest first), paged by cursor",
        security: orgSecurity,
        querystring: contract.eventListQuery,
        response: { 200: contract.eventPage, ...errors(400, 401) },
      },
    },
    async (req) => deps.org.listEvents(req.organisation, req.query),
  );
  app.get(
    '/org/events/:externalId',
    {
      ...org,
      schema: {
        operationId: 'getOrgEvent',
        summary: 'One event by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.eventItem, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getEvent(req.organisation, req.params.externalId),
  );
  app.get(
    '/org/events/:externalId/attendees.csv',
    {
      ...org,
      schema: {
        operationId: 'exportAttendees',
        summary: "An event's tickets and their current holders as CSV (streamed)",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: {
          200: media('text/csv', contract.attendeesCsv, 'The CSV file, as an attachment'),
          ...errors(401, 404),
        },
      },
    },
    async (req, reply) => {
      const lang = pickLang(undefined, req.headers['accept-language']);
      const { stream, fileName } = await deps.org.attendeesCsv(req.organisation, req.params.externalId, lang);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${fileName}"`)
        .header('Content-Language', lang)
        .header('Cache-Control', 'no-store')
        .send(stream);
    },
  );
  app.get(
    '/org/events/:externalId/holders',
    {
      ...org,
      schema: {
        operationId: 'getEventHolders',
        summary: "How many people a change of the event's time or place would e-mail now",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.eventHoldersResponse, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.eventHolders(req.organisation, req.params.externalId),
  );
  app.get(
    '/org/events/:externalId/attendance',
    {
      ...org,
      schema: {
        operationId: 'getAttendance',
        summary: "An event's attendance over its live tickets",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.attendanceResponse, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.attendance(req.organisation, req.params.externalId),
  );
  app.get(
    '/org/events/:externalId/check-ins',
    {
      ...org,
      schema: {
        operationId: 'getCheckIns',
        summary: "An event's check-ins per 5 minutes on the event day and its offline-door conflicts",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.checkInsResponse, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.checkIns(req.organisation, req.params.externalId),
  );
}
