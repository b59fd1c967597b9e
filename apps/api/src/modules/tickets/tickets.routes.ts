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
        operationId: 'listTickets',
        summary: "The holder's upcoming or past tickets",
        querystring: tickets.ticketListingQuery,
        response: { 200: tickets.ticketListingResponse },
      },
    },
    async (req) => deps.tickets.list(req.auth, req.query.status),
  );
  app.get(
    '/list/ticket_listing/:ticketUserId',
    {
      ...pre,
      schema: {
        operationId: 'getTicket',
        summary: 'One of the holder’s tickets',
        params: tickets.ticketIdParams,
        response: { 200: tickets.myTicket },
      },
    },
    async (req) => deps.tickets.one(req.auth, req.params.ticketUserId),
  );
}
