/**
 * The /v1 API: one line per module, holder routes first, then the organiser and admin APIs (with their CSV
 * body parser and their own keys) in a scope of their own.
 */
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App } from '../lib/http.js';
import { authRoutes } from '../modules/auth/auth.routes.js';
import { stepUpRoutes } from '../modules/auth/step-up.routes.js';
import { passkeysRoutes } from '../modules/auth/passkeys.routes.js';
import { profileRoutes } from '../modules/profile/profile.routes.js';
import { remindersRoutes } from '../modules/profile/reminders.routes.js';
import { accessRoutes } from '../modules/access/access.routes.js';
import { ticketsRoutes } from '../modules/tickets/tickets.routes.js';
import { giftRoutes } from '../modules/gift/gift.routes.js';
import { refundsOrgRoutes, refundsRoutes } from '../modules/refunds/refunds.routes.js';
import { benefitsRoutes } from '../modules/benefits/benefits.routes.js';
import { swapRoutes } from '../modules/swap/swap.routes.js';
import { resaleRoutes } from '../modules/resale/resale.routes.js';
import { earningsRoutes } from '../modules/resale/earnings.routes.js';
import { orgPayoutRoutes } from '../modules/resale/org-payout.routes.js';
import { sandboxPaymentEventRoutes } from '../modules/resale/sandbox-payment-events.routes.js';
import { v1SystemRoutes } from '../modules/system/system.routes.js';
import { brandingRoutes } from '../modules/branding/branding.routes.js';
import { accountRoutes } from '../modules/account/account.routes.js';
import { organiserScope } from '../modules/organiser-scope/organiser-scope.plugin.js';
import { organisationsRoutes, registerCsvBody } from '../modules/organisations/organisations.routes.js';
import { outboundWebhooksRoutes } from '../modules/outbound-webhooks/outbound-webhooks.routes.js';
import { doorKeysRoutes } from '../modules/doors/door-keys.routes.js';
import { membersRoutes } from '../modules/organisations/members.routes.js';
import { auditRoutes } from '../modules/audit/audit.routes.js';
import { walletRoutes } from '../modules/wallet/wallet.routes.js';
import { jobsRoutes } from '../modules/jobs/jobs.routes.js';
import { paymentMismatchRoutes } from '../modules/resale/payment-mismatch.routes.js';
import { exchangeRoutes } from '../modules/exchange/exchange.routes.js';
import { exchangeOrgRoutes } from '../modules/exchange/exchange-org.routes.js';
import type { AppDeps } from '../app.js';
import type { Services } from './services.js';

/** Registers every module's /v1 routes on `app`. */
export async function registerV1Routes(
  app: App,
  deps: Pick<AppDeps, 'config' | 'database'> & { now: () => Date },
  services: Services,
) {
  const { config, database, now } = deps;
  const { auth, requireAuth, profile, access, checkIn, tickets, gift, benefits, swap, resale } = services;
  const { panelConfig, branding, earnings, account, organisations, outboundWebhooks, doorKeys } = services;
  await app.register(
    (v1, _opts, done) => {
      const api: App = v1.withTypeProvider<ZodTypeProvider>();
      const cookie = { maxAgeSeconds: config.refreshTokenTtlSeconds, publicOrigin: new URL(config.publicUrl).origin };
      authRoutes(api, {
        auth,
        requireAuth,
        limits: { request: config.otpRequestsPerIpPerMinute, verify: config.otpVerifiesPerIpPerMinute },
        cookie,
      });
      passkeysRoutes(api, {
        auth,
        requireAuth,
        limits: {
          options: config.otpRequestsPerIpPerMinute,
          verify: config.otpVerifiesPerIpPerMinute,
          perUser: config.passkeysPerUserPerMinute,
        },
        cookie,
      });
      stepUpRoutes(api, {
        auth,
        requireAuth,
        limits: { request: config.otpRequestsPerIpPerMinute, verify: config.otpVerifiesPerIpPerMinute },
      });
      profileRoutes(api, { profile, requireAuth, uploadsPerMinute: config.avatarUploadsPerHolderPerMinute });
      remindersRoutes(api, {
        reminders: services.reminders,
        requireAuth,
        publicUrl: config.publicUrl,
        brandingOf: (slug) => branding.branding(slug),
      });
      accessRoutes(api, {
        access,
        requireAuth,
        checkIn,
        limits: {
          checkIn: config.checkInPerMinute,
          events: config.accessEventsPerMinute,
          scannerKeyFailures: config.scannerKeyFailuresPerMinute,
          doorSync: config.doorSyncPerMinute,
          passCredentials: config.passCredentialsPerMinute,
        },
      });
      ticketsRoutes(api, { tickets, requireAuth });
      const { fakeApns, fakeGoogleWallet } = services;
      walletRoutes(api, {
        wallet: services.wallet,
        requireAuth,
        perMinute: config.walletPerMinute,
        passesPerUserPerMinute: config.walletPassesPerUserPerMinute,
        logPerMinute: config.walletLogPerMinute,
        fakes:
          config.wallet.testMode && fakeApns && fakeGoogleWallet
            ? { apnsPushes: () => fakeApns.pushes, googleObjects: () => [...fakeGoogleWallet.objects.values()] }
            : null,
      });
      giftRoutes(api, {
        gift,
        requireAuth,
        searchPerMinute: config.userSearchesPerMinute,
        giftsPerMinute: config.giftsPerMinute,
      });
      refundsRoutes(api, { refunds: services.refunds, requireAuth, perMinute: config.refundRequestsPerMinute });
      benefitsRoutes(api, { benefits, requireAuth });
      swapRoutes(api, { swap, requireAuth });
      resaleRoutes(api, {
        ...resale,
        requireAuth,
        redeemPerMinute: config.redeemPerMinute,
        connectsPerMinute: config.payoutConnectsPerMinute,
      });
      v1SystemRoutes(api, { panelConfig });
      brandingRoutes(api, { branding });
      earningsRoutes(api, { earnings, requireAuth });
      accountRoutes(api, { account, requireAuth, exportsPerMinute: config.accountExportsPerMinute });
      exchangeRoutes(api, {
        exchange: services.exchange,
        returns: services.exchangeReturns,
        checkout: services.exchangeCheckout,
        requireAuth,
        perUserPerMinute: config.exchangePerUserPerMinute,
        perIpPerMinute: config.exchangePerIpPerMinute,
      });
      const authenticateConsole = (bearer: string) => auth.authenticateConsole(bearer);
      void api.register(
        organiserScope(
          { database, now, config, authenticateConsole },
          (orgApi, { requireOrganisation, requireAdmin }) => {
            registerCsvBody(orgApi);
            organisationsRoutes(orgApi, {
              admin: organisations.admin,
              org: organisations.org,
              requireAdmin,
              requireOrganisation,
            });
            jobsRoutes(orgApi, { jobs: services.jobsAdmin, requireAdmin });
            paymentMismatchRoutes(orgApi, { mismatches: resale.paymentMismatches, requireAdmin });
            membersRoutes(orgApi, {
              members: organisations.members,
              requireOrganisation,
              requireAuth,
              consoleToken: (claims, organisationId) => auth.consoleToken(claims, organisationId),
            });
            outboundWebhooksRoutes(orgApi, { outboundWebhooks, requireOrganisation });
            doorKeysRoutes(orgApi, { doorKeys, requireOrganisation });
            auditRoutes(orgApi, { audit: services.audit, requireOwner: requireOrganisation('owner') });
            exchangeOrgRoutes(orgApi, { exchangeOrg: services.exchangeOrg, requireOrganisation });
            refundsOrgRoutes(orgApi, { refunds: services.refunds, requireOrganisation });
            orgPayoutRoutes(orgApi, { payoutAccounts: resale.payoutAccounts, earnings, requireOrganisation });
            if (services.payouts.kind === 'sandbox')
              sandboxPaymentEventRoutes(orgApi, { reversals: resale.reversals, requireAdmin });
          },
        ),
      );
      done();
    },
    { prefix: '/v1' },
  );
}
