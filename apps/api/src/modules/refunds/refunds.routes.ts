/**
 * Routes of refund requests (issue 46, decision 046): the holder's `POST` and `DELETE /tickets/{userTicketId}/refund-request`
 * (rate-limited per account), and the organiser's `PUT /org/events/{externalId}/refund-policy`, `GET
 * /org/refund-requests` and `POST /org/refund-requests/{id}/approve|decline` (area `events`: owners and staff).
 */
import * as z from 'zod';
import { organisations as org, refunds } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import { withinLimit } from '../../lib/rate-limit.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { RefundsService } from './refunds.service.js';

const rowId = z.coerce.number().int().positive().max(2_147_483_647);
const ticketParams = z.strictObject({ userTicketId: rowId });
const requestParams = z.strictObject({ id: rowId });
const orgSecurity = securityOf('organisationApiKey');

/** The holder's routes (signed in). */
export function refundsRoutes(
  app: App,
  deps: {
    refunds: RefundsService;
    requireAuth: PreHandler;
    /** Refund requests and withdrawals per account a minute (config `refundRequestsPerMinute`). */
    perMinute: number;
  },
) {
  // Per account (after requireAuth): each request tells the organiser (a webhook). One limiter for both routes, so a
  // request and a withdrawal count together (a route's own `config.rateLimit` counts that route alone).
  const perAccount = app.createRateLimit({
    max: deps.perMinute,
    timeWindow: '1 minute',
    keyGenerator: (req) => `user:${req.auth.userId}:refund_requests`,
  });
  const pre = {
    preHandler: [deps.requireAuth, (req: Parameters<PreHandler>[0]) => withinLimit(perAccount, req, 'refund_requests')],
  };
  app.post(
    '/tickets/:userTicketId/refund-request',
    {
      ...pre,
      schema: {
        operationId: 'requestRefund',
        summary: 'Ask the organiser for a refund of a ticket I hold, where the event’s refund policy allows',
        params: ticketParams,
        body: refunds.refundRequestCreate,
        response: { 201: refunds.ticketRefundResponse, ...errors(400, 404, 409, 429) },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await deps.refunds.request(req.auth, req.params.userTicketId, req.body.reason)),
  );
  app.delete(
    '/tickets/:userTicketId/refund-request',
    {
      ...pre,
      schema: {
        operationId: 'withdrawRefundRequest',
        summary: 'Withdraw my pending refund request',
        params: ticketParams,
        response: { 200: refunds.ticketRefundResponse, ...errors(404, 429) },
      },
    },
    async (req) => deps.refunds.withdraw(req.auth, req.params.userTicketId),
  );
}

/** The organiser's routes (in the organiser scope). */
export function refundsOrgRoutes(
  app: App,
  deps: { refunds: RefundsService; requireOrganisation: RequireOrganisation },
) {
  const pre = { preHandler: deps.requireOrganisation('events') };
  app.put(
    '/org/events/:externalId/refund-policy',
    {
      ...pre,
      schema: {
        operationId: 'setRefundPolicy',
        summary: 'Set who may ask for a refund of the event’s tickets, and until when',
        security: orgSecurity,
        params: org.externalIdParams,
        body: refunds.refundPolicyRequest,
        response: { 200: refunds.refundPolicy, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.refunds.setPolicy(req.organisation, req.params.externalId, req.body),
  );
  app.get(
    '/org/refund-requests',
    {
      ...pre,
      schema: {
        operationId: 'listRefundRequests',
        summary: 'Refund requests by status (pending oldest first, the others newest first), paged by cursor',
        security: orgSecurity,
        querystring: refunds.refundRequestListQuery,
        response: { 200: refunds.refundRequestPage, ...errors(400, 401) },
      },
    },
    async (req) => deps.refunds.list(req.organisation, req.query),
  );
  app.post(
    '/org/refund-requests/:id/approve',
    {
      ...pre,
      schema: {
        operationId: 'approveRefundRequest',
        summary: 'Approve a refund request: the ticket is void, your reference of the refund is recorded',
        security: orgSecurity,
        params: requestParams,
        body: refunds.refundApproveRequest,
        response: { 200: refunds.refundRequestItem, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => deps.refunds.approve(req.organisation, req.params.id, req.body.reference),
  );
  app.post(
    '/org/refund-requests/:id/decline',
    {
      ...pre,
      schema: {
        operationId: 'declineRefundRequest',
        summary: 'Decline a refund request with a reason the holder reads',
        security: orgSecurity,
        params: requestParams,
        body: refunds.refundDeclineRequest,
        response: { 200: refunds.refundRequestItem, ...errors(400, 401, 404, 409) },
      },
    },
    async (req) => deps.refunds.decline(req.organisation, req.params.id, req.body.reason),
  );
}
