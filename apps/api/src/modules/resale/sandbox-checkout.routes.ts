/**
 * The sandbox payout provider's checkout (no Stripe): `/resale/checkout/{orderId}` shows the order and its Pay
 * button; posting it pays the order and shows the resale code once (spec section 7's buyer journey, in the sandbox).
 */
import * as z from 'zod';
import type { OrganisationBranding } from '@tp/contract';
import { panelLink } from '../../providers/mail/brand.js';
import type { App } from '../../lib/http.js';
import type { OrderService } from './order.service.js';
import {
  renderResaleCheckout,
  renderResaleConfirmation,
  renderResaleMessage,
  resaleText,
} from '../../pages/resale.page.js';
import { html, langOf, sendResaleError } from './resale-page.js';

/** Registers the sandbox checkout's page and its Pay. */
export function sandboxCheckoutRoutes(
  app: App,
  deps: { orders: OrderService; publicUrl: string; brandingOf: (slug: string) => Promise<OrganisationBranding> },
) {
  const order = z.object({ orderId: z.uuid() });
  app.get('/resale/checkout/:orderId', { schema: { hide: true, params: order } }, async (req, reply) => {
    const row = await deps.orders.order(req.params.orderId);
    const lang = langOf(req, row?.order.locale);
    if (!row)
      return reply
        .code(404)
        .type(html)
        .send(renderResaleMessage(lang, resaleText(lang).checkout, resaleText(lang).notFound));
    if (row.order.status !== 'PENDING')
      return reply
        .type(html)
        .send(
          renderResaleMessage(
            lang,
            resaleText(lang).checkout,
            row.order.status === 'PAID' ? resaleText(lang).paidAlready : resaleText(lang).failed,
          ),
        );
    return reply
      .type(html)
      .header('Cache-Control', 'no-store')
      .send(
        renderResaleCheckout({
          lang,
          brand: await deps.brandingOf(row.organisation.slug),
          orderId: row.order.id,
          eventName: row.event.name,
          ticketName: row.type.name,
          quantity: row.order.quantity,
          totalCents: row.order.totalCents,
          currencyCode: row.order.currencyCode,
        }),
      );
  });
  app.post('/resale/checkout/:orderId', { schema: { hide: true, params: order } }, async (req, reply) => {
    const found = await deps.orders.order(req.params.orderId);
    const lang = langOf(req, found?.order.locale);
    try {
      const paid = await deps.orders.payOrder(req.params.orderId);
      if (!paid)
        return reply
          .type(html)
          .send(renderResaleMessage(lang, resaleText(lang).checkout, resaleText(lang).paidAlready));
      return reply
        .type(html)
        .header('Cache-Control', 'no-store')
        .send(
          renderResaleConfirmation({
            lang,
            orderId: req.params.orderId,
            code: paid.code,
            redeemUrl: panelLink(deps.publicUrl, lang, found?.organisation.slug ?? null, { PANEL_TAB: 'REDEEM' }),
            brand: found ? await deps.brandingOf(found.organisation.slug) : null,
          }),
        );
    } catch (err) {
      return sendResaleError(reply, err, lang, 'checkout', (code, text) =>
        code === 'api.resell.order_not_found' ? text.notFound : text.failed,
      );
    }
  });
}
