/**
 * The sandbox payment page of an exchange offer (the sandbox payout provider, no Stripe; issue 45):
 * `/exchange/checkout/{orderId}` shows what is paid for, and its Pay settles the offer as Stripe's webhook would.
 * Either way the fan goes back to the panel's My tickets (the provider's return page), where the tickets or the
 * ended offer show.
 */
import * as z from 'zod';
import type { OrganisationBranding } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { pickLang } from '../../lib/lang.js';
import { panelLink } from '../../providers/mail/brand.js';
import { renderResaleCheckout } from '../../pages/resale.page.js';
import type { ExchangeCheckout } from './exchange-checkout.service.js';

/** Registers the sandbox page of an exchange offer and its Pay. */
export function exchangeSandboxRoutes(
  app: App,
  deps: { checkout: ExchangeCheckout; publicUrl: string; brandingOf: (slug: string) => Promise<OrganisationBranding> },
) {
  const params = z.object({ orderId: z.uuid() });
  const query = z.object({ lang: z.string().max(10).optional() });
  const myTickets = (lang: string, slug: string | null) =>
    panelLink(deps.publicUrl, pickLang(lang), slug, { PANEL_TAB: 'MY_TICKET' });

  app.get('/exchange/checkout/:orderId', { schema: { hide: true, params, querystring: query } }, async (req, reply) => {
    const order = await deps.checkout.order(req.params.orderId);
    if (!order) return reply.code(404).send({ message: 'api.not_found' });
    const lang = pickLang(req.query.lang ?? order.fan.locale);
    if (order.entry.status !== 'OFFERED' || order.entry.totalCents === null)
      return reply.redirect(myTickets(lang, order.organisation.slug), 303);
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .send(
        renderResaleCheckout({
          lang,
          brand: await deps.brandingOf(order.organisation.slug),
          orderId: req.params.orderId,
          eventName: order.event.name,
          ticketName: order.type.name,
          quantity: order.entry.quantity,
          totalCents: order.entry.totalCents,
          currencyCode: order.entry.currencyCode ?? '',
          action: `/exchange/checkout/${req.params.orderId}`,
        }),
      );
  });
  app.post(
    '/exchange/checkout/:orderId',
    { schema: { hide: true, params, querystring: query } },
    async (req, reply) => {
      const order = await deps.checkout.order(req.params.orderId);
      if (!order) return reply.code(404).send({ message: 'api.not_found' });
      const result = await deps.checkout.settle(req.params.orderId);
      req.log.info({ orderId: req.params.orderId, status: result.status }, 'sandbox exchange checkout');
      return reply.redirect(myTickets(req.query.lang ?? order.fan.locale, order.organisation.slug), 303);
    },
  );
}
