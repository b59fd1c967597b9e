/**
 * Routes: GET /tickets/{userTicketId}/wallet/apple (the holder's signed `.pkpass`),
 * GET /tickets/{userTicketId}/wallet/google (`{ saveUrl }`), GET /wallet/test-ca.pem
 * (in wallet test mode, the CA that signs test passes, so anyone can verify one), GET /wallet/test-fakes (in
 * wallet test mode, what the local APNs and Google fakes received, for browser journeys) and Apple's pass update web
 * service under /wallet/apple/v1 (register, unregister, changed serials, latest pass, log). Decision 029.
 * Every wallet route is limited per client IP (WALLET_PER_IP_PER_MINUTE), the device log by its own
 * (WALLET_LOG_PER_IP_PER_MINUTE) and the two pass routes also per holder (WALLET_PASSES_PER_USER_PER_MINUTE).
 */
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { wallet } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, media, securityOf } from '../../lib/openapi.js';
import { perIpPerMinute, withinLimit } from '../../lib/rate-limit.js';
import { AppError } from '../../lib/app-error.js';
import type { ApnsPush } from '../../providers/apns/apns.provider.js';
import type { WalletResource } from '../../providers/google-wallet/google-wallet.provider.js';
import type { WalletService } from './wallet.service.js';

/**
 * Apple's web service answers 200/201 with an empty body (the document: no content); Fastify sends nothing for an
 * undefined payload, where `null` would be serialised as `null`.
 */
// The cast: these answers' schemas are `z.null()` (no content in the API document), and only `undefined` sends none.
const NO_BODY = undefined as unknown as null;

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
  const web = '/wallet/apple/v1';
  /** The operations of Apple's web service that take the pass's `ApplePass <authenticationToken>`. */
  const applePass = securityOf('applePass');
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
  // 404 on the device routes: a path parameter over 100 characters is not one the router matches.
  app.post(
    `${web}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber`,
    {
      config,
      schema: {
        operationId: 'registerApplePassDevice',
        security: applePass,
        summary: "Apple's pass update web service: a device registers for a pass's pushes (ApplePass token)",
        params: wallet.appleRegistrationParams,
        body: wallet.appleRegistrationBody,
        response: { 200: z.null(), 201: z.null(), ...errors(400, 401, 404) },
      },
    },
    async (req, reply) => {
      const status = await deps.wallet.register(req.params, req.headers.authorization, req.body.pushToken);
      return reply.code(status).send(NO_BODY);
    },
  );
  app.delete(
    `${web}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier/:serialNumber`,
    {
      config,
      schema: {
        operationId: 'unregisterApplePassDevice',
        security: applePass,
        summary: "Apple's pass update web service: a device stops a pass's pushes (ApplePass token)",
        params: wallet.appleRegistrationParams,
        response: { 200: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.wallet.unregister(req.params, req.headers.authorization);
      return reply.code(200).send(NO_BODY);
    },
  );
  app.get(
    `${web}/devices/:deviceLibraryIdentifier/registrations/:passTypeIdentifier`,
    {
      config,
      schema: {
        operationId: 'getApplePassSerials',
        summary: "Apple's pass update web service: the device's passes changed since a tag (204 when none)",
        params: wallet.appleDeviceParams,
        querystring: wallet.appleUpdatedSinceQuery,
        response: { 200: wallet.appleSerialNumbers, 204: z.null(), ...errors(404) },
      },
    },
    async (req, reply) => {
      const { deviceLibraryIdentifier, passTypeIdentifier } = req.params;
      const changed = await deps.wallet.updatedSerials(
        deviceLibraryIdentifier,
        passTypeIdentifier,
        req.query.passesUpdatedSince,
      );
      return changed ? changed : reply.code(204).send(null);
    },
  );
  app.get(
    `${web}/passes/:passTypeIdentifier/:serialNumber`,
    {
      config,
      schema: {
        operationId: 'getLatestApplePass',
        security: applePass,
        summary: "Apple's pass update web service: the pass as it is now (voided once the ticket moved)",
        params: wallet.applePassParams,
        headers: wallet.appleLatestPassHeaders,
        response: {
          200: media(wallet.PKPASS_MEDIA_TYPE, wallet.applePass, 'The .pkpass file, Last-Modified'),
          304: z.null(),
          ...errors(401, 404, 429),
        },
      },
    },
    async (req, reply) => {
      const { passTypeIdentifier, serialNumber } = req.params;
      const latest = await deps.wallet.latestPass(
        passTypeIdentifier,
        serialNumber,
        req.headers.authorization,
        req.headers['if-modified-since'],
        async (holderId) => {
          passHolderOf.set(req, holderId);
          await withinLimit(perHolder, req, 'wallet');
        },
      );
      if (!latest.pkpass)
        return reply.code(304).header('Last-Modified', latest.lastModified.toUTCString()).send(NO_BODY);
      return reply
        .type(wallet.PKPASS_MEDIA_TYPE)
        .header('Last-Modified', latest.lastModified.toUTCString())
        .header('Cache-Control', 'no-store')
        .send(latest.pkpass);
    },
  );
  app.post(
    `${web}/log`,
    {
      config: perIpPerMinute('wallet', deps.logPerMinute),
      bodyLimit: wallet.APPLE_LOG_BODY_LIMIT_BYTES,
      schema: {
        operationId: 'logApplePassErrors',
        summary: "Apple's pass update web service: devices report errors (logged)",
        body: wallet.appleLogBody,
        response: { 200: z.null(), ...errors(400) },
      },
    },
    async (req, reply) => {
      // One log line a request, bounded: the first lines, each cut short, control characters as spaces.
      const { logs } = req.body;
      if (logs.length > 0)
        req.log.warn(
          {
            applePassLog: logs
              .slice(0, wallet.APPLE_LOG_MAX_LINES)
              // eslint-disable-next-line no-control-regex
              .map((line) => line.slice(0, wallet.APPLE_LOG_LINE_CHARS).replace(/[\u0000-\u001f\u007f]/g, ' ')),
            moreLines: Math.max(0, logs.length - wallet.APPLE_LOG_MAX_LINES),
          },
          'apple wallet device log',
        );
      return reply.code(200).send(NO_BODY);
    },
  );
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
