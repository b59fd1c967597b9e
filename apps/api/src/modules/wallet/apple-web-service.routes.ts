/**
 * Apple's pass update web service under /wallet/apple/v1 (decision 029): a device registers and unregisters for a
 * pass's pushes, asks which of its passes changed, fetches a pass as it is now, and reports its errors.
 */
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { wallet } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors, media, securityOf } from '../../lib/openapi.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';
import { scrub } from '../../lib/log-privacy.js';
import type { WalletService } from './wallet.service.js';

/** Control characters, written as spaces in a logged device line. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/g;

/**
 * Apple's web service answers 200/201 with an empty body (the document: no content); Fastify sends nothing for an
 * undefined payload, where `null` would be serialised as `null`.
 */
// The cast: these answers' schemas are `z.null()` (no content in the API document), and only `undefined` sends none.
const NO_BODY = undefined as unknown as null;

/** Registers Apple's web service routes (each limited per client IP by `config`; the device log by its own). */
export function appleWebServiceRoutes(
  app: App,
  deps: {
    wallet: WalletService;
    /** The wallet routes' per-IP rate limit (WALLET_PER_IP_PER_MINUTE). */
    config: ReturnType<typeof perIpPerMinute>;
    /** Device-log requests per client IP a minute (WALLET_LOG_PER_IP_PER_MINUTE). */
    logPerMinute: number;
    /** Counts a signed latest pass against its holder's pass limit; throws the limit's 429. */
    countPass: (req: FastifyRequest, holderId: number) => Promise<void>;
  },
) {
  const { config } = deps;
  const web = '/wallet/apple/v1';
  /** The operations of Apple's web service that take the pass's `ApplePass <authenticationToken>`. */
  const applePass = securityOf('applePass');
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
      const changed = await deps.wallet.updatedSerials(req.params, req.query.passesUpdatedSince);
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
      const latest = await deps.wallet.latestPass(
        req.params,
        req.headers.authorization,
        req.headers['if-modified-since'],
        (holderId) => deps.countPass(req, holderId),
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
      // One log line a request, bounded: the first lines, each cut short, control characters as spaces, e-mail
      // addresses and phone numbers masked as in text anyone wrote (issue 39, twenty-second and twenty-third re-runs:
      // anyone could write them in clear, across the cut, without '+', with a fullwidth '＠').
      const { logs } = req.body;
      if (logs.length > 0)
        req.log.warn(
          {
            applePassLog: logs
              .slice(0, wallet.APPLE_LOG_MAX_LINES)
              .map((line) => scrub(line, { max: wallet.APPLE_LOG_LINE_CHARS, untrusted: true }).replace(CONTROL, ' ')),
            moreLines: Math.max(0, logs.length - wallet.APPLE_LOG_MAX_LINES),
          },
          'apple wallet device log',
        );
      return reply.code(200).send(NO_BODY);
    },
  );
}
