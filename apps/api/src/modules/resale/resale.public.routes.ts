/**
 * Public resale pages (no sign-in): `/r/{token}` (the share link: listing and Buy), `/resale/checkout/{orderId}`
 * (the sandbox payment page, sandbox-checkout.routes.ts) and `/resale/done/{orderId}` (Stripe's return page).
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import { auth, type OrganisationBranding } from '@tp/contract';
import type { App } from '../../lib/http.js';
import type { ListingService } from './listing.service.js';
import type { OrderService } from './order.service.js';
import { renderListingPage, renderResaleMessage, resaleText } from '../../pages/resale.page.js';

import { formatEventDateTime } from '../../lib/lang.js';
import { ipKey, withinLimit } from '../../lib/rate-limit.js';
import { html, langOf, sendResaleError } from './resale-page.js';
import { sandboxCheckoutRoutes } from './sandbox-checkout.routes.js';

/** Registers the public resale pages (the sandbox's checkout only with the sandbox payout provider). */
export function resalePublicRoutes(
  app: App,
  deps: {
    listings: ListingService;
    orders: OrderService;
    publicUrl: string;
    sandbox: boolean;
    /** Purchases started per client IP a minute (config `resaleBuysPerIpPerMinute`). */
    buysPerIpPerMinute: number;
    /** The public branding of an organisation by slug (the branding module's, cached). */
    brandingOf: (slug: string) => Promise<OrganisationBranding>;
  },
) {
  // Share tokens are base64url (resale listing); order ids are UUIDs (a uuid column refuses anything else).
  const token = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
  // Counted in the handler, not as the route's limit, so a refusal is this page's message and not the API's JSON.
  const buysPerIp = app.createRateLimit({ max: deps.buysPerIpPerMinute, timeWindow: '1 minute', keyGenerator: ipKey });
  app.get('/r/:token', { schema: { hide: true, params: token } }, async (req, reply) => {
    const lang = langOf(req);
    const found = await deps.listings.publicListing(req.params.token);
    if (!found)
      return reply
        .code(404)
        .type(html)
        .send(renderResaleMessage(lang, resaleText(lang).listing, resaleText(lang).notFound));
    const when = formatEventDateTime(lang, found.event.startsAt, found.event.timeZone);
    return reply
      .type(html)
      .header('Cache-Control', 'no-store')
      .send(
        renderListingPage({
          lang,
          brand: await deps.brandingOf(found.organisation.slug),
          token: req.params.token,
          idempotencyKey: randomUUID(),
          listing: {
            eventName: found.event.name,
            venue: found.event.venue,
            city: found.event.city,
            when,
            image: found.event.image,
            ticketName: found.type.name,
            remaining: found.remaining,
            unitCents: found.unitCents,
            currencyCode: found.currencyCode,
          },
        }),
      );
  });

  app.post(
    '/r/:token',
    {
      schema: {
        hide: true,
        params: token,
        body: z.object({
          quantity: z.coerce.number().int().min(1).max(10),
          email: auth.email,
          idempotencyKey: z.string().min(8).max(100),
        }),
      },
    },
    async (req, reply) => {
      const lang = langOf(req);
      try {
        await withinLimit(buysPerIp, req, 'resale_buys');
        const { url } = await deps.orders.startPurchase(
          req.params.token,
          { quantity: req.body.quantity, email: req.body.email, locale: lang },
          req.body.idempotencyKey,
        );
        return reply.redirect(url, 303);
      } catch (err) {
        return sendResaleError(reply, err, lang, 'listing', (code, text) =>
          code === 'api.idempotency_key_reused'
            ? text.keyReused
            : code === 'api.resell.listing_not_found'
              ? text.notFound
              : code === 'api.service_unavailable'
                ? text.unavailable
                : code === 'api.too_many_requests'
                  ? text.tooMany
                  : text.soldOut,
        );
      }
    },
  );

  if (deps.sandbox) sandboxCheckoutRoutes(app, deps);

  app.get(
    '/resale/done/:orderId',
    { schema: { hide: true, params: z.object({ orderId: z.uuid() }) } },
    async (req, reply) => {
      const row = await deps.orders.order(req.params.orderId);
      const lang = langOf(req, row?.order.locale);
      // Under the listing's organisation's brand, like the listing and checkout pages (issue 23).
      const brand = row ? await deps.brandingOf(row.organisation.slug) : null;
      return reply
        .type(html)
        .send(renderResaleMessage(lang, resaleText(lang).thanks, resaleText(lang).paidAlready, brand));
    },
  );
}
