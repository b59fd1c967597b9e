/**
 * The services of every module, built once per app from the config, the database and the providers (the
 * composition root's first step; `app.ts` then registers their routes). No module builds another's service.
 */
import { readFileSync } from 'node:fs';
import { organisations as orgContract, type PanelConfig } from '@tp/contract';
import type { AppDeps } from '../app.js';
import { requireAuthWith, requireStepUpWith } from '../lib/http.js';
import { createLocalStorage } from '../providers/storage/storage.provider.js';
import { createMailProvider } from '../providers/mail/mail.provider.js';
import { laneConcurrency } from '../providers/jobs/job-lanes.js';
import { createMailJobHandler, MAIL_JOB } from '../providers/mail/mail-jobs.js';
import { createLogoJobHandler, LOGO_JOB } from '../providers/mail/mail-logo.js';
import { mailLogoRepository } from '../providers/mail/mail-logo.repository.js';
import type { JobHandler } from '../providers/jobs/job-queue.js';
import { createJobsAdminService } from '../modules/jobs/jobs.service.js';
import { createAccessTokens, createConsoleTokens, createUnsubscribeTokens } from '../modules/auth/auth.tokens.js';
import { createAuthService } from '../modules/auth/auth.service.js';
import { createAvatarService } from '../modules/profile/avatar.service.js';
import { createProfileService } from '../modules/profile/profile.service.js';
import { createRemindersService, UNSUBSCRIBE_TTL_SECONDS } from '../modules/profile/reminders.service.js';
import { createAccessService } from '../modules/access/access.service.js';
import { createCheckInService } from '../modules/access/check-in.service.js';
import { createTicketsService } from '../modules/tickets/tickets.service.js';
import { createGiftService } from '../modules/gift/gift.service.js';
import { createRefundsService } from '../modules/refunds/refunds.service.js';
import { createBenefitsService } from '../modules/benefits/benefits.service.js';
import { createSwapService } from '../modules/swap/swap.service.js';
import { createListingService } from '../modules/resale/listing.service.js';
import { createOrderService } from '../modules/resale/order.service.js';
import { createPayoutAccountService } from '../modules/resale/payout-account.service.js';
import { createStripeEventService } from '../modules/resale/stripe-event.service.js';
import { createPaymentReversals } from '../modules/resale/payment-reversal.js';
import { createCancelRefunds } from '../modules/resale/cancel-refund.js';
import { createPaymentMismatchService } from '../modules/resale/payment-mismatch.service.js';
import { createEarningsService } from '../modules/resale/earnings.service.js';
import { createAccountService } from '../modules/account/account.service.js';
import { CACHE_SECONDS, createBrandingService } from '../modules/branding/branding.service.js';
import { readCache } from '../lib/read-cache.js';
import type { Metrics } from '../lib/metrics.js';
import { createAdminService } from '../modules/organisations/admin.service.js';
import { createOrgApiService } from '../modules/organisations/org-api.service.js';
import { TICKET_IMPORT_JOB } from '../modules/organisations/org-api/ticket-import.job.js';
import { CANCEL_REFUND_JOB, EVENT_CANCEL_JOB } from '../modules/organisations/org-api/event-cancel.js';
import { createMembersService } from '../modules/organisations/members.service.js';
import { createOutboundWebhooksService } from '../modules/outbound-webhooks/outbound-webhooks.service.js';
import { createDoorKeysService } from '../modules/doors/door-keys.service.js';
import { createAuditService } from '../modules/audit/audit.service.js';
import { createExchangeService } from '../modules/exchange/exchange.service.js';
import { createExchangeOrgService } from '../modules/exchange/exchange-org.service.js';
import { exchangeNotices } from '../modules/exchange/exchange-notices.js';
import { createExchangeReturns } from '../modules/exchange/exchange-returns.service.js';
import { createExchangeCheckout } from '../modules/exchange/exchange-checkout.service.js';
import { EXCHANGE_EXPIRE_JOB } from '../modules/exchange/exchange-match.js';
import {
  createExchangeSchedule,
  EXCHANGE_CLOSE_JOB,
  EXCHANGE_DRAW_JOB,
} from '../modules/exchange/exchange-schedule.js';
import { organisationRepository } from '../modules/system/organisation.repository.js';
import type { PayoutProvider } from '../providers/payouts/payout.provider.js';
import { authRepository } from '../modules/auth/auth.repository.js';
import { createWalletService } from '../modules/wallet/wallet.service.js';
import { ensureWalletTestCredentials } from '../modules/wallet/test-credentials.js';
import { walletJobHandlers } from '../modules/wallet/wallet-jobs.js';
import {
  createFakeGoogleWalletApi,
  createGoogleWalletApi,
  type ServiceAccountKey,
} from '../providers/google-wallet/google-wallet.provider.js';
import { createApnsClient, createFakeApns } from '../providers/apns/apns.provider.js';
import { EVENT_TIMES_CHANGED_JOB } from '../providers/jobs/event-changed-jobs.js';

/**
 * Every module's service, wired to each other where one needs another (gift and the organiser API create
 * accounts through auth; orders and payouts read the profile).
 * @param deps the app's dependencies, with the clock resolved, the app's metrics and its info log (`log`: a line with
 *   fields, never an e-mail address)
 */
// Over 150 lines: the composition root: it builds every service in dependency order, one after another; splitting it
// would only move the wiring (issue 43 lists it to split by module).
// eslint-disable-next-line max-lines-per-function -- the composition root, as the comment above says
export function createServices(
  deps: AppDeps & {
    now: () => Date;
    /** The payout provider, resolved (`payoutProviderFor` when AppDeps gave none). */
    payouts: PayoutProvider;
    metrics: Metrics;
    log: (msg: string, fields: Record<string, string | number | null>) => void;
  },
) {
  const { config, database, now, metrics } = deps;
  const mail =
    deps.mail ??
    createMailProvider({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      log: (l) => console.log(l),
      timeouts: {
        connectSeconds: config.smtpConnectTimeoutSeconds,
        socketSeconds: config.smtpSocketTimeoutSeconds,
        sendSeconds: config.smtpSendTimeoutSeconds,
      },
      // One idle connection a slot of the mail lane (issue 44).
      keepConnections: laneConcurrency('mail', config),
    });
  const tokens = createAccessTokens({
    secret: config.jwtSecret,
    issuer: config.publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
  });
  const consoleTokens = createConsoleTokens({
    secret: config.jwtSecret,
    issuer: config.publicUrl,
    ttlSeconds: config.accessTokenTtlSeconds,
  });
  const branding = createBrandingService({ database, now });
  const auth = createAuthService({
    database,
    config,
    tokens,
    consoleTokens,
    now,
    organisationOf: (slug) => branding.branding(slug),
    metrics,
  });
  const requireAuth = requireAuthWith(
    (bearer) => auth.authenticate(bearer),
    (slug) => branding.organisationId(slug),
  );
  // Routes that move a ticket or money (`config.stepUp`, issue 47) want a fresh proof of presence.
  const requireStepUp = requireStepUpWith(config.stepUpMaxAgeSeconds, now);
  const storage = createLocalStorage(config.dataDir);
  const avatars = createAvatarService({
    storage,
    deadlineMs: config.avatarDeadlineMs,
    imageDecodeWorker: deps.imageDecodeWorker,
  });
  const profile = createProfileService({ database, avatars, now });
  // The reminder e-mail's unsubscribe link (issue 41 point 9): its own audience under the same secret.
  const reminders = createRemindersService({
    database,
    tokens: createUnsubscribeTokens({
      secret: config.jwtSecret,
      issuer: config.publicUrl,
      ttlSeconds: UNSUBSCRIBE_TTL_SECONDS,
    }),
    publicUrl: config.publicUrl,
    now,
  });
  const access = createAccessService({
    database,
    signingKey: config.passSigningKey,
    previousPublicKeys: config.passPreviousPublicKeys,
    ttlSeconds: config.qrTtlSeconds,
    credentialTtlSeconds: config.passCredentialTtlSeconds,
    skewSteps: config.passSkewSteps,
    now,
  });
  const doorKeys = createDoorKeysService({ database, now });
  const checkIn = createCheckInService({
    database,
    scannerKey: config.scannerKey,
    verifyCode: (text, at) => access.verifyCode(text, at),
    sessionIsLive: (sessionId, userId) => access.sessionIsLive(sessionId, userId),
    passKeys: () => access.passKeys(),
    doorKeyScope: (key) => doorKeys.scopeOf(key),
    metrics,
    now,
  });
  const tickets = createTicketsService({ database, now });
  ensureWalletTestCredentials(config.wallet);
  const googleKey = config.wallet.google
    ? (JSON.parse(readFileSync(config.wallet.google.serviceAccountKeyPath, 'utf8')) as ServiceAccountKey)
    : null;
  const fakeGoogleWallet = googleKey && config.wallet.testMode ? createFakeGoogleWalletApi() : null;
  const googleWallet = googleKey
    ? (fakeGoogleWallet ?? createGoogleWalletApi(googleKey, { timeoutMs: config.googleWalletTimeoutSeconds * 1000 }))
    : null;
  const appleWallet = config.wallet.apple;
  // Wallet test mode pushes to a local HTTP/2 fake; Apple's APNs takes the Pass Type ID certificate and key.
  const fakeApns = appleWallet && !appleWallet.apnsUrl ? createFakeApns() : null;
  const apns = appleWallet
    ? createApnsClient(
        async () =>
          fakeApns
            ? { url: await fakeApns.url() }
            : {
                url: appleWallet.apnsUrl ?? '',
                cert: readFileSync(appleWallet.certPath),
                key: readFileSync(appleWallet.keyPath),
                ...(appleWallet.keyPassphrase ? { passphrase: appleWallet.keyPassphrase } : {}),
              },
        { connectMs: config.apnsConnectTimeoutSeconds * 1000, requestMs: config.apnsTimeoutSeconds * 1000 },
      )
    : null;
  const wallet = createWalletService({
    passSigningWorker: deps.passSigningWorker,
    apns,
    google: googleKey && googleWallet ? { api: googleWallet, key: googleKey } : null,
    database,
    config: config.wallet,
    signingKey: config.passSigningKey,
    publicUrl: config.publicUrl,
    now,
  });
  const gift = createGiftService({
    database,
    config,
    now,
    ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
  });
  const refunds = createRefundsService({ database, config, now });
  const benefits = createBenefitsService({ database, now });
  const swap = createSwapService({ database, now, config });
  const payouts = deps.payouts;
  const listings = createListingService({ database, config, now });
  const orders = createOrderService({ database, config, payouts, now });
  const payoutAccounts = createPayoutAccountService({
    database,
    config,
    payouts,
    now,
    userEmail: async (id) => (await profile.me(id)).email,
  });
  // The face-value exchange queue (issue 45, decision 042): what it tells people, and its offers' checkout, which
  // Stripe's webhook settles beside resale orders.
  const notices = exchangeNotices(config.publicUrl);
  const exchangeCheckout = createExchangeCheckout({ database, now, notices, payouts, publicUrl: config.publicUrl });
  // Refunds and disputes of what Stripe (or the sandbox's stand-in) was paid (issue 46, decision 044).
  const reversals = createPaymentReversals({ database, now, config });
  // A cancelled event's payments not settled with their sellers, refunded to their buyers (issue 46, decision 045).
  const cancelRefunds = createCancelRefunds({ database, now, payouts, config });
  // Payments that pay nothing as they stand, flagged for the operator (issue 46): recorded by Stripe's webhook,
  // refunded or settled by the platform admin.
  const paymentMismatches = createPaymentMismatchService({
    database,
    payouts,
    now,
    metrics,
    orders,
    offers: { settle: (orderId) => exchangeCheckout.settle(orderId) },
  });
  const stripeEvents = createStripeEventService({
    database,
    payouts,
    now,
    orders,
    payoutAccounts,
    offers: { settle: (orderId, payment) => exchangeCheckout.settle(orderId, payment) },
    reversals,
    mismatches: paymentMismatches,
  });
  const resale = { listings, orders, payoutAccounts, stripeEvents, reversals, paymentMismatches };
  const earnings = createEarningsService({ database });
  const account = createAccountService({ database, now, tickets, listings, earnings, storage });
  const outboundWebhooks = createOutboundWebhooksService({
    database,
    now,
    allowLocalUrls: config.webhookAllowLocalUrls,
    endpointsPerOrganisation: config.webhookEndpointsPerOrganisation,
  });
  // The organisations' mail logos (issue 41 point 9): the PNG a mail carries inline, read once a minute per
  // organisation at most (a 10,000-mail import reads it once), forgotten here as soon as the logo job changes it.
  const mailLogos = readCache(async (slug: string) => mailLogoRepository.pngBySlug(database.db, slug), {
    ttlMs: CACHE_SECONDS * 1000,
    now: () => now().getTime(),
  });
  const organisations = {
    admin: createAdminService({
      database,
      now,
      ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
    }),
    members: createMembersService({
      database,
      now,
      config,
      ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
    }),
    org: createOrgApiService({
      database,
      config,
      now,
      ensureUser: (email, locale, tx) => auth.createUser(email, locale, tx),
      brandingChanged: (slug) => {
        branding.forget(slug);
        firstOrganisation.forget('first');
        // A logo taken away or changed: this instance's mails show the name at once (others within CACHE_SECONDS).
        mailLogos.forget(slug);
      },
    }),
  };

  // The exchange queue's fans' and holders' side and the organiser's.
  const exchange = createExchangeService({ database, now, notices });
  const exchangeReturns = createExchangeReturns({ database, now, notices });
  const exchangeOrg = createExchangeOrgService({ database, now, notices });
  const exchangeSchedule = createExchangeSchedule({ database, now, notices });

  const logoJob = createLogoJobHandler({
    db: database.db,
    publicUrl: config.publicUrl,
    publicDir: config.publicDir,
    allowLocal: config.logoAllowLocalUrls,
    decodeDeadlineMs: config.avatarDeadlineMs,
    now,
    ...(deps.logoFetchCa ? { ca: deps.logoFetchCa } : {}),
    changed: (slug) => mailLogos.forget(slug),
    imageDecodeWorker: deps.imageDecodeWorker,
  });

  // The durable job queue (decision 030): one handler per job kind, run by the worker of app/background.ts.
  const jobHandlers: Record<string, JobHandler> = {
    [MAIL_JOB]: createMailJobHandler({
      mail,
      config,
      logoOf: (slug) => mailLogos.get(slug),
      recipientOf: async (email) => (await authRepository.userByEmail(database.db, email))?.id ?? null,
      statusOf: async (email) =>
        orgContract.emailStatus.safeParse((await authRepository.userByEmail(database.db, email))?.emailStatus).data ??
        null,
      log: deps.log,
      recordDelivery: (email, outcome) =>
        authRepository.setEmailStatus(database.db, email, outcome.status, outcome.detail, now()),
    }),
    [LOGO_JOB]: logoJob.handler,
    // A CSV import of a stadium, in chunks of short transactions (issue 44, decision 040).
    [TICKET_IMPORT_JOB]: (payload, ctx) => organisations.org.runImportJob(payload, ctx.attempt),
    // Telling a cancelled event's holders, in batches that survive a restart (issue 46, decision 045).
    [EVENT_CANCEL_JOB]: (payload) => organisations.org.runCancelJob(payload),
    [CANCEL_REFUND_JOB]: (payload) => cancelRefunds.run(payload),
    ...walletJobHandlers(wallet),
    // An offer left unpaid at its expiresAt (scheduled when it is made; no periodic scan).
    [EXCHANGE_EXPIRE_JOB]: (payload) => exchange.expire(payload),
    // The queue's close at closesAt and its draw at drawAt (scheduled when the organiser sets them; no scan).
    [EXCHANGE_CLOSE_JOB]: (payload) => exchangeSchedule.close(payload),
    [EXCHANGE_DRAW_JOB]: (payload) => exchangeSchedule.draw(payload),
    // The event's start or transfer cut-off changed: the queue's close follows (issue 45).
    [EVENT_TIMES_CHANGED_JOB]: (payload) => exchangeSchedule.timesChanged(payload),
  };
  const jobsAdmin = createJobsAdminService({ database, now });

  // The first organisation, read outside the request path once cached (decision 027): the demo host page and
  // GET /v1/config never wait for the database (a long import holds the embedded one's only connection).
  const firstOrganisation = readCache(async (_key: 'first') => organisationRepository.first(database.db), {
    ttlMs: CACHE_SECONDS * 1000,
    now: () => now().getTime(),
  });
  /** GET /v1/config and the demo host page: the panel's settings and the first organisation's brand. */
  const panelConfig = async (): Promise<PanelConfig> => {
    const org = await firstOrganisation.get('first');
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
      wallets: { apple: config.wallet.apple !== null, google: config.wallet.google !== null },
    };
  };

  return {
    ...{
      mail,
      auth,
      branding,
      requireAuth,
      requireStepUp,
      storage,
      avatars,
      profile,
      reminders,
      access,
      checkIn,
      tickets,
      gift,
    },
    ...{ benefits, swap, refunds },
    ...{ payouts, resale, earnings, account, outboundWebhooks, doorKeys, organisations, panelConfig },
    ...{
      wallet,
      googleWallet,
      fakeGoogleWallet,
      apns,
      fakeApns,
      jobHandlers,
      logoJob,
      jobsAdmin,
      audit: createAuditService({ database }),
      exchange,
      exchangeReturns,
      exchangeCheckout,
      exchangeOrg,
    },
  };
}
export type Services = ReturnType<typeof createServices>;
