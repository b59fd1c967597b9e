/**
 * The public page of an event's exchange queue (issue 45): `GET /exchange/{orgSlug}/{eventExternalId}`, the
 * organisation's brand and the language of `?lang=` or the browser; 404 with its message when the event has no queue.
 * Fans join from the panel it links to (pages/exchange.page.ts).
 */
import { exchange as contract } from '@tp/contract';
import type { OrganisationBranding } from '@tp/contract';
import { formatEventDateTime } from '@tp/contract/format';
import { AppError } from '../../lib/app-error.js';
import type { App } from '../../lib/http.js';
import { pickLang, queryLang } from '../../lib/lang.js';
import { exchangePageText, renderExchangePage } from '../../pages/exchange.page.js';
import { resaleLayout } from '../../pages/resale.page.js';
import { escapeHtml } from '../../pages/html.js';
import type { ExchangeService } from './exchange.service.js';

/** Registers the queue's public page. */
export function exchangePageRoutes(
  app: App,
  deps: { exchange: ExchangeService; brandingOf: (slug: string) => Promise<OrganisationBranding> },
) {
  app.get(
    '/exchange/:orgSlug/:eventExternalId',
    { schema: { hide: true, params: contract.exchangeEventParams } },
    async (req, reply) => {
      const lang = pickLang(queryLang(req), req.headers['accept-language']);
      const { orgSlug, eventExternalId } = req.params;
      const view = await deps.exchange.publicView(orgSlug, eventExternalId).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'api.exchange.not_found') return null;
        throw err;
      });
      reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-store');
      if (!view) {
        const t = exchangePageText(lang);
        return reply
          .code(404)
          .send(
            resaleLayout(lang, t.title, `<h1>${escapeHtml(t.title)}</h1><p role="alert">${escapeHtml(t.notFound)}</p>`),
          );
      }
      return reply.send(
        renderExchangePage({
          lang,
          brand: await deps.brandingOf(orgSlug),
          orgSlug,
          eventExternalId,
          event: {
            name: view.event.name,
            venue: view.event.venue,
            city: view.event.city,
            when: formatEventDateTime(lang, view.event.startsAt, view.event.timeZone),
          },
          open: view.open,
          maxQuantity: view.maxQuantity,
          types: view.types,
        }),
      );
    },
  );
}
