/**
 * The composition root: builds the Fastify instance from a list of parts (`src/app/`): the services of every
 * module, the plugins, the /v1 API (one line per module), the public pages and static files, and the background
 * jobs. Tests build it with their own database and clock and call it through `app.inject`.
 */
import Fastify, { LogController, type FastifyReply } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { privateLogOptions } from './lib/log-privacy.js';
import type { Database } from './db/client.js';
import type { MailProvider } from './providers/mail/mail.provider.js';
import { createSandboxPayouts, type PayoutProvider } from './providers/payouts/payout.provider.js';
import { errorHandler } from './lib/http.js';
import { createServices } from './app/services.js';
import { registerPlugins } from './app/plugins.js';
import { registerV1Routes } from './app/v1-routes.js';
import { registerPublicRoutes } from './app/public-routes.js';
import { registerBackgroundJobs } from './app/background.js';
import { registerMetrics, registerMetricsTokenRoute } from './app/metrics.js';
import { createMetrics } from './lib/metrics.js';
import { registerAccessLog, registerRequestId, requestIdGenerator } from './lib/request-id.js';
import { registerNulGuard } from './lib/nul-guard.js';
import { registerLoadShedding } from './lib/load-shedding.js';

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
  /** PEM certificates the organisation logo's fetch trusts besides the system's (tests: their own HTTPS server). */
  logoFetchCa?: string;
  /**
   * Path of the image-decoding processes' module (avatars and organisation logos, image-pool.ts): the API tests pass
   * this run's bundled `image-decode.worker.js` (test/setup/server-bundle.ts) so that no decoding process loads tsx.
   * Default: the module beside image-pool (compiled `.js` in production).
   */
  imageDecodeWorker?: string;
  /**
   * Path of the Apple pass-signing threads' module (modules/wallet/pass-signer.ts): the API tests pass this run's
   * bundled `pass-signing.worker.js`, so that no signing thread registers tsx. Default: the module beside pass-signer.
   */
  passSigningWorker?: string;
}

/**
 * The provider the configuration names: Stripe when `stripeSecretKey` is set (its module and SDK loaded now), else
 * the sandbox.
 */
async function payoutProviderFor(
  config: Pick<
    Config,
    | 'stripeSecretKey'
    | 'stripeWebhookSecret'
    | 'stripeApiUrl'
    | 'stripeTimeoutSeconds'
    | 'stripeMaxInFlight'
    | 'publicUrl'
  >,
): Promise<PayoutProvider> {
  if (!config.stripeSecretKey) return createSandboxPayouts(config.publicUrl);
  const { createStripePayouts } = await import('./providers/payouts/stripe-payouts.js');
  return createStripePayouts({
    secretKey: config.stripeSecretKey,
    webhookSecret: config.stripeWebhookSecret,
    apiUrl: config.stripeApiUrl,
    timeoutMs: config.stripeTimeoutSeconds * 1000,
    maxInFlight: config.stripeMaxInFlight,
  });
}

export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const { trustProxy } = config;
  const now = deps.now ?? (() => new Date());
  const app = Fastify({
    // Ids, never e-mails, phone numbers or names (lib/log-privacy.ts); every line of a request carries its id.
    logger: deps.logger ? { ...privateLogOptions, ...(deps.logger === true ? {} : deps.logger) } : false,
    // The id of each request: a trusted proxy's sane x-request-id, else a UUID (lib/request-id.ts).
    genReqId: requestIdGenerator(trustProxy),
    // TRUST_PROXY: a hop count trusts that many proxies in front of us (what Fastify does for a number).
    trustProxy: typeof trustProxy === 'number' ? (_addr: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 1024 * 1024,
    // Server timeouts (decision 039): a stalled or trickling client cannot hold a connection for ever.
    connectionTimeout: config.connectionTimeoutSeconds * 1000,
    requestTimeout: config.requestTimeoutSeconds * 1000,
    keepAliveTimeout: config.keepAliveTimeoutSeconds * 1000,
    http: serverOptions(config),
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

  registerRequestId(app);
  // No NUL in any parameter, query, body or header (PostgreSQL refuses it in text): 400 on every route.
  registerNulGuard(app);
  registerAccessLog(app);
  // One registry per app (tests build many apps in one process), decision 031.
  const metrics = createMetrics();
  const payouts = deps.payouts ?? (await payoutProviderFor(config));
  const services = createServices({ ...deps, now, payouts, metrics, log: (msg, fields) => app.log.info(fields, msg) });
  // Before the routes: /v1 answers 503 api.busy while the event loop or the database queue is past its bound.
  const { pressure } = await registerLoadShedding(app, config, database, (reason) => metrics.shed(reason));
  const { metricsAddress } = registerMetrics(app, { config, database }, services, metrics);
  const { redis } = await registerPlugins(app, config, services.requireAuth, services.requireStepUp);
  registerMetricsTokenRoute(app, config);
  await registerV1Routes(app, { config, database, now }, services);
  await registerPublicRoutes(app, { config, database, redis, pressure }, services);
  const { outboundDeliveryWorker, housekeeping, jobs } = registerBackgroundJobs(
    app,
    { config, database, now, redis },
    services,
  );

  const { auth, profile, access, tickets, gift, benefits, swap, resale, mail, account, earnings } = services;
  return Object.assign(app, {
    services: {
      ...{ auth, profile, access, tickets, gift, benefits, swap, resale, mail, housekeeping, account, earnings },
      organisations: services.organisations,
      checkIn: services.checkIn,
      outboundWebhooks: services.outboundWebhooks,
      outboundDeliveryWorker,
      jobs,
      wallet: services.wallet,
      googleWallet: services.googleWallet,
      fakeApns: services.fakeApns,
    },
    metricsAddress,
  });
}
export type BuiltApp = Awaited<ReturnType<typeof buildApp>>;

/**
 * Node's options of the HTTP server (decision 039), milliseconds: `headersTimeout` (at most `requestTimeout`, as
 * Node requires) and how often Node checks both, `connectionsCheckingInterval`: half the headers timeout, at most
 * Node's default 30 s, so a trickling client is closed within 1.5 × HEADERS_TIMEOUT_SECONDS.
 */
function serverOptions(config: Config) {
  const headersTimeout = Math.round(config.headersTimeoutSeconds * 1000);
  return {
    headersTimeout,
    requestTimeout: Math.round(config.requestTimeoutSeconds * 1000),
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.round(headersTimeout / 2))),
  };
}
