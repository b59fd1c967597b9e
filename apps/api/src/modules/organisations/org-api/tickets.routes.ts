/**
 * Routes of the organiser's tickets (issues 12, 21), `/v1/org/tickets...`: issue by the organiser's own id, revoke,
 * list, read one with its history, and e-mail the holder again. Owners and staff (area `events`).
 */
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { organisations as contract } from '@tp/contract';
import type { App } from '../../../lib/http.js';
import { errors } from '../../../lib/openapi.js';
import { orgSecurity, sendUpserted, upserted, type OrgRoutesDeps } from './route-parts.js';

/** Registers `/org/tickets`, `/org/tickets/{externalId}` and its `/resend` (the CSV import is ticket-import.routes.ts). */
export function ticketsRoutes(app: App, deps: OrgRoutesDeps) {
  const org = { preHandler: deps.requireOrganisation('events') };
  app.put(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertTicket',
        summary: 'Issue a ticket to a holder by e-mail (the same PUT again changes nothing)',
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.ticketUpsertRequest,
        response: { ...upserted, ...errors(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const status = await deps.org.upsertTicket(req.organisation, { externalId: req.params.externalId, ...req.body });
      return sendUpserted(reply, req.params.externalId, status);
    },
  );
  app.delete(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'revokeTicket',
        summary: "Revoke a ticket: it leaves the holder's lists and no longer admits",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 204: z.null(), ...errors(401, 404, 409) },
      },
    },
    async (req, reply) => {
      await deps.org.revokeTicket(req.organisation, req.params.externalId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/org/tickets',
    {
      ...org,
      schema: {
        operationId: 'listOrgTickets',
        summary: 'Tickets with their current holder, by event, status and search, paged by cursor',
        security: orgSecurity,
        querystring: contract.ticketListQuery,
        response: { 200: contract.ticketPage, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.listTickets(req.organisation, req.query),
  );
  app.get(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'getOrgTicket',
        summary: 'One ticket, its current holder and its history',
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.ticketDetail, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getTicket(req.organisation, req.params.externalId),
  );
  app.post(
    '/org/tickets/:externalId/resend',
    {
      ...org,
      // Per ticket, after the organisation is known: a mis-click or a script cannot flood one holder's inbox.
      config: {
        rateLimit: {
          max: contract.TICKET_RESENDS_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler' as const,
          keyGenerator: (req: FastifyRequest) =>
            `resend:${req.organisation.id}:${(req.params as { externalId: string }).externalId}`,
        },
      },
      schema: {
        operationId: 'resendTicketMail',
        summary: "E-mail the ticket's current holder their ticket again",
        description:
          `At most ${contract.TICKET_RESENDS_PER_HOUR} times an hour per ticket (then 429). A ticket of a cancelled ` +
          'event is not sent again (409 `api.org.event_cancelled`): its holder was sent the cancellation.',
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 202: contract.resendTicketResponse, ...errors(401, 404, 409, 429) },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await deps.org.resendTicketMail(req.organisation, req.params.externalId)),
  );
}
