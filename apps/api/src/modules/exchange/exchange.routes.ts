/**
 * The fans' and holders' routes of the exchange queue (issue 45, decision 042): the public view of an event's queue
 * (`GET /v1/exchange/{orgSlug}/{eventExternalId}`), joining it, my entries, leaving, declining and paying an offer,
 * and returning a ticket to it or withdrawing it. Joins, leaves, declines and returns count against a limit per account
 * and one per client IP (config `exchangePerUserPerMinute`, `exchangePerIpPerMinute`).
 */
import * as z from 'zod';
import { exchange as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors } from '../../lib/openapi.js';
import { ipKey, perUserPerMinute, withinLimit } from '../../lib/rate-limit.js';
import type { ExchangeService } from './exchange.service.js';
import type { ExchangeReturns } from './exchange-returns.service.js';
import type { ExchangeCheckout } from './exchange-checkout.service.js';

/** What the exchange's holder routes use. */
interface ExchangeRoutesDeps {
  exchange: ExchangeService;
  returns: ExchangeReturns;
  checkout: ExchangeCheckout;
  requireAuth: PreHandler;
  /** Changes of the queue (join, leave, decline, return, withdraw) per account a minute. */
  perUserPerMinute: number;
  /** The same per client IP a minute. */
  perIpPerMinute: number;
}

export function exchangeRoutes(app: App, deps: ExchangeRoutesDeps) {
  const perIp = app.createRateLimit({ max: deps.perIpPerMinute, timeWindow: '1 minute', keyGenerator: ipKey });
  // requireAuth first (the API document reads the holder's credential from it), then the per-IP count; the
  // per-account count is the route's own limit, run after the pre-handlers.
  const change = {
    preHandler: [deps.requireAuth, (req: Parameters<PreHandler>[0]) => withinLimit(perIp, req, 'exchange')],
    config: perUserPerMinute('exchange', deps.perUserPerMinute),
  };
  app.get(
    '/exchange/:orgSlug/:eventExternalId',
    {
      schema: {
        operationId: 'getExchange',
        summary: "An event's exchange queue: whether it is open and the ticket types one may join, at face value",
        params: contract.exchangeEventParams,
        response: { 200: contract.exchangePublic, ...errors(400, 404) },
      },
    },
    async (req) => deps.exchange.publicView(req.params.orgSlug, req.params.eventExternalId),
  );
  app.post(
    '/exchange/:orgSlug/:eventExternalId/entries',
    {
      ...change,
      schema: {
        operationId: 'joinExchange',
        summary: 'Join the queue of a ticket type for 1 to maxQuantity tickets (all or nothing)',
        params: contract.exchangeEventParams,
        body: contract.joinExchangeRequest,
        response: { 201: contract.exchangeEntry, ...errors(400, 401, 404, 409, 429) },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await deps.exchange.join(req.auth.userId, req.params.orgSlug, req.params.eventExternalId, req.body)),
  );
  app.get(
    '/exchange/entries',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'listExchangeEntries',
        summary: 'My queue entries, newest first, with my position and any open offer',
        response: { 200: z.array(contract.exchangeEntry), ...errors(401) },
      },
    },
    async (req) => deps.exchange.entries(req.auth.userId),
  );
  app.delete(
    '/exchange/entries/:id',
    {
      ...change,
      schema: {
        operationId: 'leaveExchange',
        summary: 'Leave the queue (an open offer ends and goes to the next entry)',
        params: contract.exchangeEntryParams,
        response: { 204: z.null(), ...errors(400, 401, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      await deps.exchange.leave(req.auth.userId, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/exchange/entries/:id/decline',
    {
      ...change,
      schema: {
        operationId: 'declineExchangeOffer',
        summary: 'Decline my open offer (the entry ends; the tickets go to the next entry)',
        params: contract.exchangeEntryParams,
        response: { 204: z.null(), ...errors(400, 401, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      await deps.exchange.decline(req.auth.userId, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/exchange/entries/:id/checkout',
    {
      ...change,
      schema: {
        operationId: 'checkoutExchangeOffer',
        summary: 'Where I pay my open offer: the payment page (the same one for every call while the offer is open)',
        params: contract.exchangeEntryParams,
        response: { 200: contract.exchangeCheckout, ...errors(400, 401, 404, 409, 429, 503) },
      },
    },
    async (req) => deps.checkout.checkout(req.auth.userId, req.params.id),
  );
  app.post(
    '/exchange/returns',
    {
      ...change,
      config: { ...change.config, stepUp: 'exchange_return' },
      schema: {
        operationId: 'returnToExchange',
        summary: 'Sell a ticket I hold to the queue at face value (paid to my payout account once sold)',
        body: contract.exchangeReturnRequest,
        response: { 201: contract.exchangeReturn, ...errors(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.returns.returnTicket(req.auth, req.body.userTicketId)),
  );
  app.get(
    '/exchange/returns/:userTicketId',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'getExchangeReturn',
        summary:
          "Whether my ticket can be sold to its event's queue now, at what face value, and its state if returned",
        params: contract.exchangeReturnParams,
        response: { 200: contract.exchangeReturnState, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.returns.returnState(req.auth, req.params.userTicketId),
  );
  app.delete(
    '/exchange/returns/:userTicketId',
    {
      ...change,
      schema: {
        operationId: 'withdrawFromExchange',
        summary: 'Take my returned ticket back (refused while an offer for it is open)',
        params: contract.exchangeReturnParams,
        response: { 204: z.null(), ...errors(400, 401, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      await deps.returns.withdraw(req.auth, req.params.userTicketId);
      return reply.code(204).send(null);
    },
  );
}
