/**
 * Routes: GET /ticket_swap/tickets, GET /ticket_swap/tickets/{ticketId}, POST /ticket_swap/start_swap,
 * POST /ticket_swap/confirm_swap/{swapIdentifier}, POST /ticket_swap/cancel_swap/{swapIdentifier} (beyond the spec:
 * releases the held stock at once); and the sandbox checkout pages (outside /v1).
 */
import * as z from 'zod';
import { swap, type OrganisationBranding } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import { errors } from '../../lib/openapi.js';
import type { SwapService } from './swap.service.js';
import { renderSwapCheckout, renderCheckoutMessage } from '../../pages/checkout.page.js';
import { pickLang } from '../../lib/lang.js';

export function swapRoutes(app: App, deps: { swap: SwapService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/ticket_swap/tickets',
    {
      ...pre,
      schema: {
        operationId: 'listSwapTickets',
        summary: "The holder's tickets that may be swapped",
        response: { 200: z.array(swap.swapTicket) },
      },
    },
    async (req) => deps.swap.baseTickets(req.auth),
  );
  app.get(
    '/ticket_swap/tickets/:ticketId',
    {
      ...pre,
      schema: {
        operationId: 'listSwapTargets',
        summary: 'The ticket types a ticket may be swapped to',
        params: z.strictObject({ ticketId: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 200: z.array(swap.swapTicket) },
      },
    },
    async (req) => deps.swap.targets(req.params.ticketId),
  );
  app.post(
    '/ticket_swap/start_swap',
    {
      ...pre,
      config: { stepUp: 'swap' },
      schema: {
        operationId: 'startSwap',
        summary: 'Start a swap: holds the stock and answers the checkout to pay or confirm at',
        body: swap.startSwapRequest,
        response: { 200: swap.startSwapResponse, ...errors(409) },
      },
    },
    async (req) => deps.swap.start(req.auth, req.body),
  );
  app.post(
    '/ticket_swap/confirm_swap/:swapIdentifier',
    {
      ...pre,
      schema: {
        operationId: 'confirmSwap',
        summary: 'Confirm a started swap (a paid upgrade or a downgrade)',
        params: z.strictObject({ swapIdentifier: z.string().max(64) }),
        response: { 200: z.object({ swapType: z.string(), quantity: z.number() }), ...errors(402, 409) },
      },
    },
    async (req) => deps.swap.confirm(req.auth.userId, req.params.swapIdentifier),
  );
  app.post(
    '/ticket_swap/cancel_swap/:swapIdentifier',
    {
      ...pre,
      schema: {
        operationId: 'cancelSwap',
        summary: 'Cancel a started swap and release the held stock',
        params: z.strictObject({ swapIdentifier: z.string().max(64) }),
        response: { 204: z.null(), ...errors(409) },
      },
    },
    async (req, reply) => {
      await deps.swap.cancel(req.auth.userId, req.params.swapIdentifier);
      return reply.code(204).send(null);
    },
  );
}

/**
 * The sandbox checkout (used while CHECKOUT_BASE_URL is not set): `/checkout/{locale}/{slug}-{eventId}/{orderIdentifier}`
 * shows the order; paying (upgrade) or confirming (downgrade) confirms the swap and returns to `redirectDomain`
 * when it is on the panel's own origin.
 */
export function sandboxCheckoutRoutes(
  app: App,
  deps: {
    swap: SwapService;
    publicUrl: string;
    /** The ticket's organisation's brand (issue 23: the checkout page wears it like the resale pages). */
    brandingOf: (slug: string) => Promise<OrganisationBranding>;
  },
) {
  const params = z.object({ locale: z.string(), slug: z.string(), orderIdentifier: z.string().max(64) });
  const query = z.object({ redirectDomain: z.string().max(2000).optional(), origin: z.string().max(40).optional() });
  const back = (locale: string, redirect?: string) => {
    const fallback = `${deps.publicUrl}/${pickLang(locale)}/?PANEL_TAB=MY_TICKET`;
    try {
      return redirect && new URL(redirect).origin === new URL(deps.publicUrl).origin ? redirect : fallback;
    } catch {
      return fallback;
    }
  };
  const brandOf = (slug: string | null) => (slug ? deps.brandingOf(slug) : Promise.resolve(null));
  const html = (reply: { type: (t: string) => { send: (s: string) => unknown } }, body: string) =>
    reply.type('text/html; charset=utf-8').send(body);

  app.get(
    '/checkout/:locale/:slug/:orderIdentifier',
    { schema: { hide: true, params, querystring: query } },
    async (req, reply) => {
      const order = await deps.swap.order(req.params.orderIdentifier);
      const lang = pickLang(req.params.locale);
      if (!order)
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(renderCheckoutMessage(lang, 'notFound', back(lang)));
      return html(
        reply,
        renderSwapCheckout({
          lang,
          order,
          brand: await brandOf(order.organisationSlug),
          action: req.url,
          backUrl: back(lang, req.query.redirectDomain),
          redirectDomain: req.query.redirectDomain ?? '',
        }),
      );
    },
  );
  app.post(
    '/checkout/:locale/:slug/:orderIdentifier',
    { schema: { hide: true, params, querystring: query } },
    async (req, reply) => {
      const lang = pickLang(req.params.locale);
      const order = await deps.swap.order(req.params.orderIdentifier);
      if (!order)
        return reply
          .code(404)
          .type('text/html; charset=utf-8')
          .send(renderCheckoutMessage(lang, 'notFound', back(lang)));
      try {
        if (order.swap.swapType === 'UPGRADE' && !order.swap.paidAt) await deps.swap.markPaid(order.swap.id);
        await deps.swap.confirm(null, order.swap.id);
      } catch (err) {
        // A rule said no (AppError): show its message. Anything else is our failure: log it with its cause.
        if (!(err instanceof AppError)) req.log.error({ err }, 'swap checkout confirm failed');
        const code = err instanceof AppError ? err.code : 'api.internal_error';
        return reply
          .code(409)
          .type('text/html; charset=utf-8')
          .send(
            renderCheckoutMessage(
              lang,
              code,
              back(lang, req.query.redirectDomain),
              await brandOf(order.organisationSlug),
            ),
          );
      }
      return reply.redirect(back(lang, req.query.redirectDomain), 303);
    },
  );
  // Cancel: the held stock is released at once, then back to the panel.
  app.post(
    '/checkout/:locale/:slug/:orderIdentifier/cancel',
    { schema: { hide: true, params, querystring: query } },
    async (req, reply) => {
      const lang = pickLang(req.params.locale);
      await deps.swap.cancel(null, req.params.orderIdentifier).catch(() => undefined);
      return reply.redirect(back(lang, req.query.redirectDomain), 303);
    },
  );
}
