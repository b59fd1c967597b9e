/**
 * Routes: GET /tickets/{userTicketId}/wallet/apple (the holder's signed `.pkpass`),
 * GET /tickets/{userTicketId}/wallet/google (`{ saveUrl }`), GET /wallet/test-ca.pem
 * (in wallet test mode, the CA that signs test passes, so anyone can verify one), GET /wallet/test-fakes (in
 * wallet test mode, what the local APNs and Google fakes received, for browser journeys) and Apple's pass update web
 * service under /wallet/apple/v1 (apple-web-service.routes.ts). Decision 029.
 * Every wallet route is limited per client IP (WALLET_PER_IP_PER_MINUTE), the device log by its own
 * (WALLET_LOG_PER_IP_PER_MINUTE) and the two pass routes also per holder (WALLET_PASSES_PER_USER_PER_MINUTE).
 */
import type { FastifyRequest } from 'fastify';
import { wallet } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, media } from '../../lib/openapi.js';
import { perIpPerMinute, withinLimit } from '../../lib/rate-limit.js';
import { AppError } from '../../lib/app-error.js';
import type { ApnsPush } from '../../providers/apns/apns.provider.js';
import type { WalletResource } from '../../providers/google-wallet/google-wallet.provider.js';
import type { WalletService } from './wallet.service.js';
import { appleWebServiceRoutes } from './apple-web-service.routes.js';

/** Registers the wallet routes; the pass routes take the holder's token (`requireAuth`), the test CA none. */
export function walletRoutes(
  app: App,
  deps: {
    wallet: WalletService;
    requireAuth: PreHandler;
    /** Requests per client IP a minute on each wallet route (WALLET_PER_IP_PER_MINUTE). */
    perMinute: number;
    /** Pass downloads (Apple and Google routes together) per holder a minute (WALLET_PASSES_PER_USER_PER_MINUTE). */
    passesPerUserPerMinute: number;
    /** Device-log requests per client IP a minute (WALLET_LOG_PER_IP_PER_MINUTE). */
    logPerMinute: number;
    /** Wallet test mode's local fakes (null otherwise): GET /wallet/test-fakes reads them. */
    fakes: { apnsPushes: () => ApnsPush[]; googleObjects: () => WalletResource[] } | null;
  },
) {
  const config = perIpPerMinute('wallet', deps.perMinute);
  // One bucket per holder for every route that signs a pass or calls Google: the two pass routes (after
  // requireAuth) and Apple's latest pass, counted for the pass's holder once its token was checked and only when it
  // is signed (a 304 is free): the latest pass was limited per IP only, and one pass token asked from many
  // addresses filled the signing queue for everyone (issue 39 audit, item 5).
  const passHolderOf = new WeakMap<FastifyRequest, number>();
  const perHolder = app.createRateLimit({
    max: deps.passesPerUserPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (req) => `wallet-pass:${passHolderOf.get(req) ?? req.auth.userId}`,
  });
  // requireAuth stays its own entry of the preHandler array: the API document reads the holder's credential from it.
  const passPreHandler: PreHandler[] = [deps.requireAuth, (req) => withinLimit(perHolder, req, 'wallet')];
  appleWebServiceRoutes(app, {
    wallet: deps.wallet,
    config,
    logPerMinute: deps.logPerMinute,
    countPass: async (req, holderId) => {
      passHolderOf.set(req, holderId);
      await withinLimit(perHolder, req, 'wallet');
    },
  });
  app.get(
    '/tickets/:userTicketId/wallet/apple',
    {
      config,
      preHandler: passPreHandler,
      schema: {
        operationId: 'getApplePass',
        summary: 'The held ticket as a signed Apple Wallet pass (.pkpass)',
        params: wallet.walletTicketParams,
        response: {
          200: media(wallet.PKPASS_MEDIA_TYPE, wallet.applePass, 'The .pkpass file, no-store'),
          ...errors(404, 409),
        },
      },
    },
    async (req, reply) => {
      const pkpass = await deps.wallet.applePass(req.auth, req.params.userTicketId);
      return reply
        .type(wallet.PKPASS_MEDIA_TYPE)
        .header('Content-Disposition', `attachment; filename="ticket-${req.params.userTicketId}.pkpass"`)
        .header('Cache-Control', 'no-store')
        .send(pkpass);
    },
  );
  app.get(
    '/tickets/:userTicketId/wallet/google',
    {
      config,
      preHandler: passPreHandler,
      schema: {
        operationId: 'getGoogleSaveLink',
        summary: 'The held ticket saved to Google Wallet: its save link',
        params: wallet.walletTicketParams,
        response: { 200: wallet.googleSaveLink, ...errors(404, 409) },
      },
    },
    async (req) => deps.wallet.googleSaveUrl(req.auth, req.params.userTicketId),
  );
  app.get(
    '/wallet/test-ca.pem',
    {
      config,
      schema: {
        operationId: 'getWalletTestCa',
        summary: "Wallet test mode's CA certificate (PEM), which signs every test pass (404 outside test mode)",
        response: { 200: media('application/x-pem-file', wallet.testCaPem, 'The CA certificate, PEM'), ...errors(404) },
      },
    },
    async (_req, reply) => reply.type('application/x-pem-file').send(deps.wallet.testCaPem()),
  );
  app.get(
    '/wallet/test-fakes',
    {
      config,
      schema: {
        operationId: 'getWalletTestFakes',
        summary:
          "Wallet test mode's local fakes: the APNs pushes and Google Wallet objects they received (404 outside test mode)",
        response: { 200: wallet.walletTestFakes, ...errors(404) },
      },
    },
    () => {
      const fakes = deps.fakes;
      if (!fakes) return Promise.reject(new AppError('api.wallet.not_configured'));
      return Promise.resolve({ apnsPushes: fakes.apnsPushes(), googleObjects: fakes.googleObjects() });
    },
  );
}
