/** Routes: GET /list/ticket_listing?status= and GET /list/ticket_listing/{ticketUserId}. */
import { tickets } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { TicketsService } from './tickets.service.js';

export function ticketsRoutes(app: App, deps: { tickets: TicketsService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/list/ticket_listing',
    {
      ...pre,
      schema: {
        tags: ['tickets'],
        querystring: tickets.ticketListingQuery,
        response: { 200: tickets.ticketListingResponse },
      },
    },
    async (req) => deps.tickets.list(req.auth, req.query.status),
  );
  app.get(
    '/list/ticket_listing/:ticketUserId',
    { ...pre, schema: { tags: ['tickets'], params: tickets.ticketIdParams, response: { 200: tickets.myTicket } } },
    async (req) => deps.tickets.one(req.auth, req.params.ticketUserId),
  );
}
