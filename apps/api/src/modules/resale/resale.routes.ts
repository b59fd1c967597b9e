/**
 * Resale routes under /v1 (spec section 7): available tickets, price calculation, list, sales, sold,
 * unlist, then the payout account's (payout.routes.ts), redeem and the code PDF.
 */
import * as z from 'zod';
import { resell } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { ListingService } from './listing.service.js';
import type { OrderService } from './order.service.js';
import type { PayoutAccountService } from './payout-account.service.js';
import type { StripeEventService } from './stripe-event.service.js';
import { payoutRoutes } from './payout.routes.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';
import { errors, media } from '../../lib/openapi.js';

const idemKey = (h: unknown) => (typeof h === 'string' && h.length > 0 && h.length <= 100 ? h : undefined);

/** Registers the holder's resale routes, the payout account's among them. */
export function resaleRoutes(
  app: App,
  deps: {
    listings: ListingService;
    orders: OrderService;
    payoutAccounts: PayoutAccountService;
    stripeEvents: StripeEventService;
    requireAuth: PreHandler;
    redeemPerMinute: number;
    /** Payout onboardings per holder a minute (config `payoutConnectsPerMinute`). */
    connectsPerMinute: number;
  },
) {
  const pre = { preHandler: deps.requireAuth };
  const listings = z.array(resell.listingWithTotals);
  // `userTicketId` (optional): the ticket the user came from; its group reports it as `userTicketId`.
  const availableQuery = z.object({ userTicketId: z.coerce.number().int().positive().max(2_147_483_647).optional() });
  app.get(
    '/resell/tickets/available',
    {
      ...pre,
      schema: {
        operationId: 'listResellableTickets',
        summary: "The holder's tickets that may be listed for resale",
        querystring: availableQuery,
        response: { 200: z.array(resell.resellableTicket) },
      },
    },
    async (req) => deps.listings.available(req.auth, req.query.userTicketId),
  );
  app.post(
    '/resell/ticket/calculation',
    {
      ...pre,
      schema: {
        operationId: 'calculateResalePrice',
        summary: 'What a buyer pays and the seller earns at a price',
        body: resell.priceCalculationRequest,
        response: { 200: resell.priceCalculationResponse },
      },
    },
    async (req) => deps.listings.calculate(req.body.ticketId, req.body.selectedPrice, req.body.quantity),
  );
  app.post(
    '/resell',
    {
      ...pre,
      config: { stepUp: 'resale_listing' },
      schema: {
        operationId: 'createResale',
        summary: 'List tickets for resale (Idempotency-Key honoured)',
        body: resell.createResaleRequest,
        response: { 200: resell.createResaleResponse, ...errors(403, 409, 422) },
      },
    },
    async (req) => deps.listings.create(req.auth, req.body, idemKey(req.headers['idempotency-key'])),
  );
  const listed = (operationId: string, summary: string) => ({ operationId, summary, response: { 200: listings } });
  app.get('/resell', { ...pre, schema: listed('listResales', "The holder's listings on sale") }, async (req) =>
    deps.listings.listings(req.auth, 'SALE'),
  );
  app.get(
    '/resell/ticket/sales',
    { ...pre, schema: listed('listResaleSales', "The holder's listings on sale (the spec's sales read)") },
    async (req) => deps.listings.listings(req.auth, 'SALE'),
  );
  app.get(
    '/resell/tickets/sold',
    { ...pre, schema: listed('listSoldResales', "The holder's sold listings") },
    async (req) => deps.listings.listings(req.auth, 'SOLD'),
  );
  app.post(
    '/resell/unlist',
    {
      ...pre,
      schema: {
        operationId: 'unlistResale',
        summary: 'Take a ticket off resale',
        body: resell.unlistRequest,
        response: { 204: z.null(), ...errors(409) },
      },
    },
    async (req, reply) => {
      await deps.listings.unlist(req.auth.userId, req.body.userTicketId);
      return reply.code(204).send(null);
    },
  );
  payoutRoutes(app, deps);
  app.post(
    '/resell/redeem/:secret',
    {
      ...pre,
      config: perIpPerMinute('resale_redeem', deps.redeemPerMinute),
      schema: {
        operationId: 'redeemResale',
        summary: "Redeem a bought resale's secret code: the tickets move to the buyer",
        params: z.strictObject({ secret: z.string().min(1).max(64) }),
        response: { 200: resell.redeemResponse, ...errors(409) },
      },
    },
    async (req) => deps.orders.redeem(req.auth.userId, req.params.secret),
  );
  app.post(
    '/resell/:ticketId',
    {
      schema: {
        operationId: 'getResaleCodePdf',
        summary: 'The secret-code PDF of a paid order (ticketId = order id)',
        params: z.strictObject({ ticketId: z.string().max(64) }),
        body: z.object({ code: z.string().min(1).max(64) }),
        response: { 200: media('application/pdf', resell.codePdf, 'The PDF, as an attachment'), ...errors(404) },
      },
    },
    async (req, reply) => {
      const { pdf, fileName } = await deps.orders.codePdf(req.params.ticketId, req.body.code);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="${fileName}"`)
        .header('Cache-Control', 'no-store')
        .send(pdf);
    },
  );
}
