/**
 * Builds the Fastify instance: plugins, then modules under /v1, then public pages and static files.
 * Tests build it with their own database and clock and call it through `app.inject`.
 */
import Fastify, { LogController, type FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyMultipart from '@fastify/multipart';
import fastifyCookie from '@fastify/cookie';
import { createLocalStorage } from './providers/storage/storage.provider.js';
import { createAvatarService } from './modules/profile/avatar.service.js';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { AVATAR_MAX_BYTES, branding as brandingContract, type PanelConfig } from '@tp/contract';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createMailProvider, type MailProvider } from './providers/mail/mail.provider.js';
import { errorHandler, requireAuthWith, type App } from './lib/http.js';
import { createAccessTokens } from './modules/auth/auth.tokens.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { createProfileService } from './modules/profile/profile.service.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { createAccessService } from './modules/access/access.service.js';
import { accessRoutes } from './modules/access/access.routes.js';
import { createCheckInService } from './modules/access/check-in.service.js';
import { SCANNER_SW_SCOPE, scannerPageRoutes } from './modules/access/scanner.public.routes.js';
import { createTicketsService } from './modules/tickets/tickets.service.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { createGiftService } from './modules/gift/gift.service.js';
import { giftRoutes } from './modules/gift/gift.routes.js';
import { createBenefitsService } from './modules/benefits/benefits.service.js';
import { benefitsRoutes } from './modules/benefits/benefits.routes.js';
import { createSwapService } from './modules/swap/swap.service.js';
import { sandboxCheckoutRoutes, swapRoutes } from './modules/swap/swap.routes.js';
import { createListingService } from './modules/resale/listing.service.js';
import { createOrderService } from './modules/resale/order.service.js';
import { createPayoutAccountService } from './modules/resale/payout-account.service.js';
import { createWebhookService } from './modules/resale/webhook.service.js';
import { resaleRoutes } from './modules/resale/resale.routes.js';
import { resalePublicRoutes } from './modules/resale/resale.public.routes.js';
import { createSandboxPayouts, createStripePayouts, type PayoutProvider } from './providers/payouts/payout.provider.js';
import { devMailRoutes, healthRoutes, v1SystemRoutes } from './modules/system/system.routes.js';
import { organisationRepository } from './modules/system/organisation.repository.js';
import { renderDemoHostPage } from './pages/demo-host.page.js';
import { connectRedis, ipKey, rateLimitStore, redisReady } from './lib/rate-limit.js';
import { createHousekeeping } from './modules/housekeeping/housekeeping.service.js';
import { registerSecurityHeaders, routeHelmet, scriptNonce } from './lib/security-headers.js';
import { createEarningsService } from './modules/resale/earnings.service.js';
import { earningsRoutes } from './modules/resale/earnings.routes.js';
import { createAccountService } from './modules/account/account.service.js';
import { accountRoutes } from './modules/account/account.routes.js';
import { infoPageRoutes } from './modules/system/info.public.routes.js';
import { createBrandingService, type BrandingService } from './modules/branding/branding.service.js';
import { brandingRoutes } from './modules/branding/branding.routes.js';
import { createMailQueue } from './providers/mail/mail-queue.js';
import { createAdminService } from './modules/organisations/admin.service.js';
import { createOrgApiService } from './modules/organisations/org-api.service.js';
import { requireAdminWith, requireOrganisationWith } from './modules/organisations/org-auth.js';
import { organisationsRoutes, registerCsvBody } from './modules/organisations/organisations.routes.js';
import { createWebhooksService } from './modules/webhooks/webhooks.service.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { createWebhookWorker } from './modules/webhooks/webhook-worker.js';
import { AUDIENCES, SECURITY_SCHEMES, describeRoute, transformDocument, transformRoute } from './lib/openapi.js';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Defaults to the provider the config names. */
  mail?: MailProvider;
  /** Defaults to Stripe when STRIPE_SECRET_KEY is set, else the sandbox. */
  payouts?: PayoutProvider;
  /** Clock; tests move it. */
  now?: () => Date;
  logger?: boolean | object;
}

export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const { trustProxy } = config;
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    logger: deps.logger ?? false,
    // TRUST_PROXY: a hop count trusts that many proxies in front of us (what Fastify does for a number).
    trustProxy: typeof trustProxy === 'number' ? (_addr: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 1024 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
    // A URL the router cannot decode (`/v1/organisations/%`) answers the API's error body like any other 400,
    // not Fastify's own `{ error, code, statusCode }` (found by the API document check of the tests, issue 28).
    frameworkErrors: (_err, _req, reply: FastifyReply) => {
      void reply.code(400).send({ message: 'api.invalid_request_body' });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ message: 'api.not_found' }));

  const mail =
    deps.mail ?? createMailProvider({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: (l) => console.log(l) });
  const tokens = createAccessTokens({
    secret: config.jwtSecret,
    issuer: config.publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
  });
  const auth = createAuthService({ database, config, mail, tokens, now });
  const branding = createBrandingService({ database, now });
  const requireAuth = requireAuthWith(
    (bearer) => auth.authenticate(bearer),
    (slug) => branding.organisationId(slug),
  );
  const storage = createLocalStorage(config.dataDir);
  const avatars = createAvatarService({ storage, deadlineMs: config.avatarDeadlineMs });
  const profile = createProfileService({ database, avatars });
  const access = createAccessService({
    database,
    signingKey: config.passSigningKey,
    previousPublicKeys: config.passPreviousPublicKeys,
    ttlSeconds: config.qrTtlSeconds,
    credentialTtlSeconds: config.passCredentialTtlSeconds,
    skewSteps: config.passSkewSteps,
    now,
  });
  const tickets = createTicketsService({ database, now });
  const gift = createGiftService({
    database,
    config,
    mail,
    log: app.log,
    now,
    ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
  });
  const benefits = createBenefitsService({ database, now });
  const swap = createSwapService({ database, now });
  const payouts =
    deps.payouts ??
    (config.stripeSecretKey
      ? createStripePayouts({
          secretKey: config.stripeSecretKey,
          webhookSecret: config.stripeWebhookSecret,
          apiUrl: config.stripeApiUrl,
        })
      : createSandboxPayouts(config.publicUrl));
  const listings = createListingService({ database, config, now });
  const orders = createOrderService({
    database,
    config,
    mail,
    log: app.log,
    payouts,
    now,
    userContact: async (id) => profile.me(id),
  });
  const payoutAccounts = createPayoutAccountService({
    database,
    config,
    payouts,
    now,
    userEmail: async (id) => (await profile.me(id)).email,
  });
  const webhook = createWebhookService({ database, payouts, now, orders, payoutAccounts, log: app.log });
  const resale = { listings, orders, payoutAccounts, webhook };
  const earnings = createEarningsService({ database });
  const account = createAccountService({ database, now, tickets, listings, earnings, storage });
  // Mails that follow organiser work (issued tickets) go out in the background, after commit.
  const mailQueue = createMailQueue({ mail, log: app.log });
  const webhooks = createWebhooksService({ database, now, allowLocalUrls: config.webhookAllowLocalUrls });
  const organisations = {
    admin: createAdminService({ database, now }),
    org: createOrgApiService({
      database,
      config,
      mailQueue,
      now,
      ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
    }),
    mailQueue,
  };

  const panelConfig = async (): Promise<PanelConfig> => {
    const org = await organisationRepository.first(database.db);
    return {
      isDev: config.devOutbox,
      checkoutBaseUrl: config.checkoutBaseUrl,
      stripePublishableKey: config.stripePublishableKey,
      orgName: org?.name ?? null,
      orgLogo: org?.logoUrl ?? null,
      orgWebsite: org?.website ?? null,
      productName: config.productName,
      productSiteUrl: config.productSiteUrl,
      helpCenterUrl: config.helpCenterUrl,
      appUrl: config.appUrl,
      assetsBaseUrl: config.publicUrl,
      twitterVia: config.twitterVia,
    };
  };

  await registerSecurityHeaders(app, config);
  // Answers made per request (the panel document with its nonce, JSON) go out brotli/gzip-compressed from
  // 512 bytes (issue 9: the LOGIN screen's document and /v1/config); built files carry their own .br/.gz.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 512,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Limits shared through Redis when REDIS_URL is set (decision 005), else counted in this process.
  const redis = config.redisUrl ? connectRedis(config.redisUrl, (msg) => app.log.warn(msg)) : null;
  await app.register(fastifyRateLimit, {
    global: false,
    store: rateLimitStore(redis),
    keyGenerator: ipKey,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: 'api.too_many_requests', retryAfter: ctx.after }),
  });
  // Parses the refresh cookie of the embedded panel (decision 012); no signed cookies.
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  // The API document (issue 28): OpenAPI 3.1 from the routes' zod schemas, completed by lib/openapi.ts.
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ticket panel API',
        version: '1.0.0',
        description:
          'The /v1 API of the ticket panel: the holder panel, the door scanner, the organiser API and the platform ' +
          'admin. Every error answer is `{ "message": key }` (schema `Error`).',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicUrl }],
      tags: Object.entries(AUDIENCES).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: transformRoute,
    transformObject: transformDocument,
  });
  // The API reference at /docs (issue 28, decision 016): Swagger UI from the package's own files (no CDN), under
  // the `page` CSP like any other page (scripts and styles from this origin); it reads /docs/json.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, validatorUrl: null, tryItOutEnabled: false },
    theme: { title: 'Ticket panel API reference' },
  });
  // Every /v1 route: credential, audience tag and the errors its kind can answer (lib/openapi.ts); every holder
  // route (requireAuth) documents and accepts X-Organisation (issue 12), in this one place.
  app.addHook('onRoute', (route) =>
    describeRoute(route, { holder: requireAuth, holderHeaders: brandingContract.holderHeaders }),
  );

  await app.register(
    (v1, _opts, done) => {
      const api = v1 as unknown as App;
      authRoutes(api, {
        auth,
        requireAuth,
        limits: { request: config.otpRequestsPerIpPerMinute, verify: config.otpVerifiesPerIpPerMinute },
        cookie: { maxAgeSeconds: config.refreshTokenTtlSeconds, publicOrigin: new URL(config.publicUrl).origin },
      });
      profileRoutes(api, { profile, requireAuth });
      accessRoutes(api, {
        access,
        requireAuth,
        checkIn: createCheckInService({
          database,
          scannerKey: config.scannerKey,
          verifyCode: (text, at) => access.verifyCode(text, at),
          sessionIsLive: (sessionId, userId) => access.sessionIsLive(sessionId, userId),
          passKeys: () => access.passKeys(),
          now,
        }),
        limits: {
          checkIn: config.checkInPerMinute,
          events: config.accessEventsPerMinute,
          scannerKeyFailures: config.scannerKeyFailuresPerMinute,
        },
      });
      ticketsRoutes(api, { tickets, requireAuth });
      giftRoutes(api, { gift, requireAuth, searchPerMinute: config.userSearchesPerMinute });
      benefitsRoutes(api, { benefits, requireAuth });
      swapRoutes(api, { swap, requireAuth });
      resaleRoutes(api, { ...resale, requireAuth, redeemPerMinute: config.redeemPerMinute });
      v1SystemRoutes(api, { panelConfig });
      brandingRoutes(api, { branding });
      earningsRoutes(api, { earnings, requireAuth });
      accountRoutes(api, { account, requireAuth });
      void api.register((scope, _o, next) => {
        const orgApi = scope as unknown as App;
        registerCsvBody(orgApi);
        const requireOrganisation = requireOrganisationWith({ database, now });
        organisationsRoutes(orgApi, {
          ...organisations,
          requireAdmin: requireAdminWith(config.adminKey),
          requireOrganisation,
        });
        webhooksRoutes(orgApi, { webhooks, requireOrganisation });
        next();
      });
      done();
    },
    { prefix: '/v1' },
  );

  healthRoutes(app, { database, rateLimits: () => (redis?.status === 'ready' ? 'shared' : 'local') });
  resalePublicRoutes(app, { listings, orders, publicUrl: config.publicUrl, sandbox: payouts.kind === 'sandbox' });
  scannerPageRoutes(app, { panelDistDir: config.panelDistDir });
  infoPageRoutes(app, { productName: config.productName });
  if (config.sandboxCheckout) sandboxCheckoutRoutes(app, { swap, publicUrl: config.publicUrl });
  // Never in production: the outbox shows everyone's sign-in codes.
  if (config.devOutbox) devMailRoutes(app, { mail });
  await registerPages(app, config, panelConfig, branding);
  await app.register(fastifyStatic, {
    root: storage.root,
    prefix: '/media/',
    decorateReply: false,
    maxAge: '1d',
    immutable: true,
    setHeaders: (res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });

  const webhookWorker = createWebhookWorker({
    database,
    now,
    intervalSeconds: config.webhookWorkerIntervalSeconds,
    batchSize: config.webhookBatchSize,
    timeoutSeconds: config.webhookTimeoutSeconds,
    maxAttempts: config.webhookMaxAttempts,
    allowLocalUrls: config.webhookAllowLocalUrls,
    log: (msg, err) => app.log.error({ err }, msg),
  });
  const housekeeping = createHousekeeping({
    database,
    intervalSeconds: config.housekeepingIntervalSeconds,
    retentionDays: config.housekeepingRetentionDays,
    now,
    log: (msg, err) => (err ? app.log.error({ err }, msg) : app.log.info(msg)),
  });
  app.addHook('onReady', async () => {
    if (redis) await redisReady(redis, 2000);
    housekeeping.start();
    webhookWorker.start();
  });
  app.addHook('onClose', async () => {
    await housekeeping.stop();
    await webhookWorker.stop();
    redis?.disconnect();
    await avatars.close();
    await mailQueue.close(config.shutdownTimeoutSeconds * 1000);
    mail.close();
  });
  return Object.assign(app, {
    services: {
      ...{ auth, profile, access, tickets, gift, benefits, swap, resale, mail, housekeeping, account, earnings },
      organisations,
      webhooks,
      webhookWorker,
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
  // weight (~90 bytes a file, about 1 KiB of the LOGIN screen's dozen files; issue 9 budget).
  app.addHook('onSend', async (_req, reply, payload) => {
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
    // HTML documents go out only through their routes (/en/, /es/, /scanner), with their headers.
    allowedPath: (path) => !/\.html(\.br|\.gz)?$/.test(path),
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', panelCacheControl(path));
      res.setHeader('Vary', 'Accept-Encoding');
      if (/\/scanner\/sw\.js(\.br|\.gz)?$/.test(path)) res.setHeader('Service-Worker-Allowed', SCANNER_SW_SCOPE);
    },
  });
  const panelHelmet = routeHelmet(config, 'panel');
  const indexFile = join(config.panelDistDir, 'index.html');
  for (const lang of ['en', 'es']) {
    app.get(`/${lang}/`, { schema: { hide: true }, helmet: panelHelmet }, async (_req, reply) => {
      // Read per request (a few KB): a rebuild is served without a restart.
      const html = await readFile(indexFile, 'utf8').catch(() => null);
      if (!html) return reply.code(503).type('text/plain').send('The panel is not built yet: run npm run build.');
      return reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .send(
          html
            .replace('<html lang="en"', `<html lang="${lang}"`)
            // The build's inline theme script and module scripts run under the CSP nonce.
            .replace(/<script(?=[\s>])/g, `<script nonce="${scriptNonce(reply)}"`),
        );
    });
    app.get(`/${lang}`, { schema: { hide: true } }, async (req, reply) =>
      reply.redirect(`/${lang}/${req.url.slice(3)}`),
    );
  }
  app.get('/', { schema: { hide: true }, helmet: routeHelmet(config, 'host') }, async (req, reply) => {
    const cfg = await panelConfig();
    const query = req.query as { lang?: string; noembed?: string; org?: string };
    const lang = query.lang === 'es' ? 'es' : 'en';
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

export type BuiltApp = Awaited<ReturnType<typeof buildApp>>;
