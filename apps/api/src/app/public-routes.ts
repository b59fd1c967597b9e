/**
 * Everything outside /v1: health, the public pages (resale listing, scanner, help, sandbox checkout, dev mail),
 * uploaded media, the panel's build, the panel document at /en/ and /es/, and the demo host page at /.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { LOCALES, type PanelConfig } from '@tp/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { App } from '../lib/http.js';
import { text } from '../lib/i18n.js';
import type { PressureReason } from '../lib/load-shedding.js';
import { pickLang, queryLang } from '../lib/lang.js';
import { REQUEST_ID_HEADER } from '../lib/request-id.js';
import { scriptNonce } from '../lib/security-headers.js';
import type { BrandingService } from '../modules/branding/branding.service.js';
import { SCANNER_SW_SCOPE, scannerPageRoutes } from '../modules/access/scanner.public.routes.js';
import { consolePageRoutes } from '../modules/organisations/console.public.routes.js';
import { resalePublicRoutes } from '../modules/resale/resale.public.routes.js';
import { sandboxCheckoutRoutes } from '../modules/swap/swap.routes.js';
import { exchangeSandboxRoutes } from '../modules/exchange/exchange-sandbox.routes.js';
import { exchangePageRoutes } from '../modules/exchange/exchange-page.routes.js';
import { devMailRoutes, healthRoutes } from '../modules/system/system.routes.js';
import { infoPageRoutes } from '../modules/system/info.public.routes.js';
import { renderDemoHostPage } from '../pages/demo-host.page.js';
import { escapeHtml } from '../pages/html.js';
import type { Redis } from 'ioredis';
import type { Services } from './services.js';

/** Registers the routes outside /v1 (after the API, so its prefixes win). */
export async function registerPublicRoutes(
  app: App,
  deps: { config: Config; database: Database; redis: Redis | null; pressure: () => PressureReason | null },
  services: Services,
) {
  const { config, database, redis, pressure } = deps;
  const { resale, swap, mail, panelConfig, branding, storage } = services;
  const { listings, orders } = resale;
  const payouts = services.payouts;
  healthRoutes(app, {
    database,
    rateLimits: () => (redis?.status === 'ready' ? 'shared' : 'local'),
    pressure,
    retryAfterSeconds: config.shedRetryAfterSeconds,
  });
  resalePublicRoutes(app, {
    listings,
    orders,
    publicUrl: config.publicUrl,
    sandbox: payouts.kind === 'sandbox',
    buysPerIpPerMinute: config.resaleBuysPerIpPerMinute,
    brandingOf: (slug) => branding.branding(slug),
  });
  exchangePageRoutes(app, { exchange: services.exchange, brandingOf: (slug) => branding.branding(slug) });
  if (payouts.kind === 'sandbox')
    exchangeSandboxRoutes(app, {
      checkout: services.exchangeCheckout,
      publicUrl: config.publicUrl,
      brandingOf: (slug) => branding.branding(slug),
    });
  scannerPageRoutes(app, { panelDistDir: config.panelDistDir });
  consolePageRoutes(app, { panelDistDir: config.panelDistDir, stripe: Boolean(config.stripePublishableKey) });
  infoPageRoutes(app, { productName: config.productName });
  if (config.sandboxCheckout)
    sandboxCheckoutRoutes(app, { swap, publicUrl: config.publicUrl, brandingOf: (slug) => branding.branding(slug) });
  // Never in production: the outbox shows everyone's sign-in codes.
  if (config.devOutbox) devMailRoutes(app, { mail });
  await registerPages(app, config, panelConfig, branding);
  await app.register(fastifyStatic, {
    root: storage.root,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1d',
    immutable: true,
    setHeaders: (reply) => {
      reply.header('X-Content-Type-Options', 'nosniff');
    },
  });
}

/**
 * Static files, the panel document at /en/ and /es/, and the demo host page at / (`?org=<slug>`: the site of
 * that organisation, embedding its branded panel with `data-org`; default the first organisation, `demo`).
 */
async function registerPages(
  app: App,
  config: Config,
  panelConfig: () => Promise<PanelConfig>,
  branding: BrandingService,
) {
  // An immutable file is never revalidated: its ETag, Last-Modified and Accept-Ranges are dead
  // weight (~90 bytes a file, about 1 KiB of the LOGIN screen's dozen files; issue 9 budget). A static file (the
  // wildcard routes of @fastify/static) drops its request id too (~55 bytes a file): serving one writes no log line
  // to find by it (decision 031).
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.url?.endsWith('*')) reply.removeHeader(REQUEST_ID_HEADER);
    if (String(reply.getHeader('cache-control') ?? '').includes('immutable'))
      for (const name of ['etag', 'last-modified', 'accept-ranges']) reply.removeHeader(name);
    return payload;
  });
  await app.register(fastifyStatic, { root: config.publicDir, prefix: '/public/', decorateReply: false, maxAge: '1h' });
  // The panel's build output; looked up per request so a build made after start is served too.
  // Brotli and gzip copies are made at build (vite-plugin-compression2) and picked by Accept-Encoding.
  await app.register(fastifyStatic, {
    root: config.panelDistDir,
    prefix: '/',
    decorateReply: false,
    index: false,
    wildcard: true,
    preCompressed: true,
    // `send` would otherwise overwrite our Cache-Control with `public, max-age=0`.
    cacheControl: false,
    // HTML documents go out only through their routes (/en/, /es/, /scanner, /console), with their headers.
    allowedPath: (path) => !/\.html(\.br|\.gz)?$/.test(path),
    setHeaders: (reply, path) => {
      reply.header('Cache-Control', panelCacheControl(path));
      reply.header('Vary', 'Accept-Encoding');
      if (/\/scanner\/sw\.js(\.br|\.gz)?$/.test(path)) reply.header('Service-Worker-Allowed', SCANNER_SW_SCOPE);
    },
  });
  const indexFile = join(config.panelDistDir, 'index.html');
  for (const lang of LOCALES) {
    app.get(`/${lang}/`, { schema: { hide: true }, config: { securityHeaders: 'panel' } }, async (_req, reply) => {
      // Read per request (a few KB): a rebuild is served without a restart.
      const html = await readFile(indexFile, 'utf8').catch(() => null);
      if (!html) return reply.code(503).type('text/plain').send('The panel is not built yet: run npm run build.');
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(
          html
            .replace('<html lang="en"', `<html lang="${lang}"`)
            // The tab's first title in the page's language (the panel then names the screen, app/document-title.ts).
            .replace('<title>My tickets</title>', `<title>${escapeHtml(text(lang, 'pages.panel.title'))}</title>`)
            // The build's inline theme script and module scripts run under the CSP nonce.
            .replace(/<script(?=[\s>])/g, `<script nonce="${scriptNonce(reply)}"`),
        );
    });
    app.get(`/${lang}`, { schema: { hide: true } }, async (req, reply) =>
      reply.redirect(`/${lang}/${req.url.slice(3)}`),
    );
  }
  app.get('/', { schema: { hide: true }, config: { securityHeaders: 'host' } }, async (req, reply) => {
    const cfg = await panelConfig();
    const query = req.query as { noembed?: string; inline?: string; org?: string };
    const lang = pickLang(queryLang(req));
    const org = typeof query.org === 'string' ? await branding.branding(query.org).catch(() => null) : null;
    return reply.type('text/html; charset=utf-8').send(
      renderDemoHostPage({
        orgSlug: org?.slug ?? 'demo',
        orgName: org?.name ?? cfg.orgName ?? cfg.productName,
        orgLogoUrl: org?.logoUrl ?? cfg.orgLogo ?? '/public/demo/org-logo.svg',
        orgWebsite: org?.websiteUrl ?? cfg.orgWebsite ?? config.publicUrl,
        panelOrigin: config.publicUrl,
        lang,
        embed: query.noembed === undefined,
        inline: query.inline !== '0',
        nonce: scriptNonce(reply),
      }),
    );
  });
}

/**
 * Cache policy of a file of the panel's build (path on disk, possibly a `.br`/`.gz` copy):
 * content-hashed `/assets/` are immutable for a year; the loader `/embed.js` keeps its URL across
 * releases, so it is cached 5 minutes and then revalidated by ETag; anything else is revalidated
 * on every use (`no-cache`).
 */
function panelCacheControl(path: string): string {
  if (path.includes('/assets/')) return 'public, max-age=31536000, immutable';
  if (/\/embed\.js(\.br|\.gz)?$/.test(path)) return 'public, max-age=300';
  return 'no-cache';
}
