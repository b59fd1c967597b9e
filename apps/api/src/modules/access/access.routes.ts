/**
 * Routes: GET /auth/access/qrCodeData ({ ttl } seconds), GET /auth/access/qr (base64 PNG, no-store) and
 * POST /auth/access/pass-credential (the offline pass's device certificate, decision 010) for the
 * signed-in holder; POST /access/check-in, GET /access/events, GET /access/pass-keys, and for the offline
 * door GET /access/events/:eventId/admissions and POST /access/sync, for the door scanner (header
 * `x-scanner-key`: the platform SCANNER_KEY or an organisation's door key; `x-door-device`: the device's
 * stable id for the check-in log; see check-in.service.ts).
 */
import * as z from 'zod';
import { access } from '@tp/contract';
import type { FastifyRequest } from 'fastify';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import type { AccessService } from './access.service.js';
import type { CheckInService, Door, DoorScope } from './check-in.service.js';
import { guessGuard, ipKey, perIpPerMinute, perUserPerMinute } from '../../lib/rate-limit.js';
import { errors, media, securityOf } from '../../lib/openapi.js';

/** Door devices remembered per key at most, and for how long after their last right key (milliseconds). */
const KNOWN_DEVICES_PER_KEY = 1_000;
const KNOWN_DEVICE_MS = 24 * 3600_000;
/** Keys whose devices are remembered at most (the least recently used key's forgotten first). */
const KNOWN_KEYS_MAX = 10_000;

/**
 * The door devices (`x-door-device` ids) that presented a right key to this instance in the last day, per key (the
 * platform SCANNER_KEY or a door key's id): a device is let through a guesser's lockout of its address only with
 * the very key that made it known (issue 39, fifth re-run: a device id made known by any organisation's door key
 * opened the lockout to guesses of the platform key), and a key can crowd out only its own devices (at most
 * KNOWN_DEVICES_PER_KEY each; the re-run pushed a venue's gate out with 10,001 junk ids of another key). In memory,
 * per instance.
 */
function knownDoorDevices(now: () => number = Date.now) {
  /** The platform key's devices: never crowded out by door keys (sixth re-run: 10,001 door keys pushed it out). */
  const platform = new Map<string, number>();
  const byKey = new Map<number, Map<string, number>>();
  const devicesOf = (scope: DoorScope) => (scope.doorKeyId === null ? platform : byKey.get(scope.doorKeyId));
  return {
    has(scope: DoorScope, deviceId: string): boolean {
      return (devicesOf(scope)?.get(deviceId) ?? 0) > now() - KNOWN_DEVICE_MS;
    },
    add(scope: DoorScope, deviceId: string) {
      let seen = platform;
      if (scope.doorKeyId !== null) {
        seen = byKey.get(scope.doorKeyId) ?? new Map<string, number>();
        byKey.delete(scope.doorKeyId);
        byKey.set(scope.doorKeyId, seen);
        if (byKey.size > KNOWN_KEYS_MAX) byKey.delete(byKey.keys().next().value!);
      }
      seen.delete(deviceId);
      seen.set(deviceId, now());
      if (seen.size > KNOWN_DEVICES_PER_KEY) seen.delete(seen.keys().next().value!);
    },
    /**
     * Forgets a device id under every key: it presented a wrong key while its address was locked out, which a door
     * that holds its key never does (sixth re-run: a known id made the lockout an oracle, 429 for a wrong key and 200
     * for the right one, at full speed). A guesser gets one guess per device id it knows.
     */
    forget(deviceId: string) {
      platform.delete(deviceId);
      for (const seen of byKey.values()) seen.delete(deviceId);
    },
  };
}

/** The `x-door-device` header as logged: 8-64 letters, digits, `-` or `_` (the scanner sends a UUID), else null. */
const deviceIdOf = (value: unknown): string | null =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;

export function accessRoutes(
  app: App,
  deps: {
    access: AccessService;
    requireAuth: PreHandler;
    checkIn: CheckInService;
    /**
     * Per-IP limits per minute: check-ins and event lists with the right key (config `checkInPerMinute`,
     * `accessEventsPerMinute`), wrong scanner keys on either route (config `scannerKeyFailuresPerMinute`).
     */
    limits: {
      checkIn: number;
      events: number;
      scannerKeyFailures: number;
      /** Door sync batches per IP (config `doorSyncPerMinute`); pass credentials per holder (`passCredentialsPerMinute`). */
      doorSync: number;
      passCredentials: number;
    };
  },
) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/access/qrCodeData',
    {
      ...pre,
      schema: {
        operationId: 'getQrCodeData',
        summary: 'How long a QR pass lives (seconds), and when it appears if not yet',
        response: { 200: access.qrCodeData },
      },
    },
    async (req) => {
      const revealAt = await deps.access.passRevealAt(req.auth);
      return { ttl: deps.access.ttlSeconds, passRevealAt: revealAt?.toISOString() ?? null };
    },
  );
  app.get(
    '/auth/access/qr',
    {
      ...pre,
      schema: {
        operationId: 'getQrCode',
        summary: "The holder's QR pass: a base64 PNG as text (spec section 7)",
        response: { 200: media('text/plain', access.qrPng, 'A base64-encoded PNG, no-store'), ...errors(409) },
      },
    },
    async (req, reply) => {
      await deps.access.assertPassRevealed(req.auth);
      const png = await deps.access.qrPng(req.auth.userId);
      return reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(png);
    },
  );

  app.post(
    '/auth/access/pass-credential',
    {
      ...pre,
      config: perUserPerMinute('pass_credentials', deps.limits.passCredentials),
      schema: {
        operationId: 'issuePassCredential',
        summary: "Certify this device's key for the offline pass",
        body: access.passCredentialRequest,
        response: { 200: access.passCredential, ...errors(409) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      await deps.access.assertPassRevealed(req.auth);
      return deps.access.issueCredential(req.auth, req.body.devicePublicKey);
    },
  );

  // Door routes count two per-IP buckets: requests with a right key (the platform SCANNER_KEY or a live
  // door key) against the route's own limit (wrong keys are not counted there), and wrong keys against one slow
  // bucket of failures shared by all door routes; past it, the address is locked out (below). The key's scope is looked up once per request (the rate limit's
  // allowList runs first) and is on `req.door` for the handler.
  const scopes = new WeakMap<FastifyRequest, Promise<DoorScope | null>>();
  const scopeOf = (req: FastifyRequest) => {
    let scope = scopes.get(req);
    if (!scope) {
      scope = deps.checkIn.scopeOf(req.headers['x-scanner-key']);
      scopes.set(req, scope);
    }
    return scope;
  };
  const rightKeyOnly = async (req: FastifyRequest) => (await scopeOf(req)) === null;
  // Past the failures' limit an address is locked out until the minute ends (guessGuard): every request of it is
  // refused before its key is compared, the right key too, so a 429 tells a guesser nothing (issue 39, fourth
  // re-audit: the right SCANNER_KEY was still answered behind 429s, at full speed). A door device that has
  // presented the same right key to this instance in the last day (`x-door-device`, see knownDoorDevices) is let
  // through the lockout, so a guesser on a venue's Wi-Fi does not stop its gates.
  const guard = guessGuard(
    app.createRateLimit({ max: deps.limits.scannerKeyFailures, timeWindow: '1 minute', keyGenerator: ipKey }),
    'scanner_key_failures',
  );
  const knownDevices = knownDoorDevices();
  const doors = new WeakMap<FastifyRequest, Door>();
  const doorOf = (req: FastifyRequest): Door => doors.get(req)!;
  const scanner = {
    // preValidation: after the route's rate limit (onRequest), before the body is looked at.
    preValidation: async (req: FastifyRequest) => {
      const deviceId = deviceIdOf(req.headers['x-door-device']);
      if (guard.locked(req)) {
        // Locked out: only a device known to the very key it presents gets its key looked at; anything else is
        // refused alike, a right key of another scope too, so the 429 tells nothing.
        const scope = deviceId ? await scopeOf(req) : null;
        if (deviceId && !scope) knownDevices.forget(deviceId);
        if (!scope || !deviceId || !knownDevices.has(scope, deviceId)) guard.check(req);
      }
      const scope = await scopeOf(req);
      if (scope) {
        if (deviceId) knownDevices.add(scope, deviceId);
        doors.set(req, { scope, deviceId });
        return;
      }
      await guard.wrong(req);
      throw new AppError('api.access.scanner_unauthorized');
    },
  };
  // The door key is a security scheme of the document (`doorKey`), checked by `scanner.preValidation`;
  // `x-door-device` is the door device's stable id, logged with each scan.
  const scannerKeyHeader = z.object({
    'x-door-device': z.string().optional().meta({ description: "the door device's stable id (logged with each scan)" }),
  });
  const security = securityOf('doorKey');
  app.get(
    '/access/events',
    {
      ...scanner,
      config: {
        rateLimit: { ...perIpPerMinute('door_events', deps.limits.events).rateLimit, allowList: rightKeyOnly },
      },
      schema: {
        operationId: 'listDoorEvents',
        summary: 'Events the door scanner can admit to',
        headers: scannerKeyHeader,
        security,
        response: { 200: access.scannerEvents },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.events(doorOf(req).scope);
    },
  );
  app.get(
    '/access/pass-keys',
    {
      ...scanner,
      config: {
        rateLimit: { ...perIpPerMinute('door_events', deps.limits.events).rateLimit, allowList: rightKeyOnly },
      },
      schema: {
        operationId: 'getPassKeys',
        summary: 'Public keys that verify passes offline',
        headers: scannerKeyHeader,
        security,
        response: { 200: access.passKeys },
      },
    },
    async () => deps.access.passKeys(),
  );
  app.post(
    '/access/check-in',
    {
      ...scanner,
      config: { rateLimit: { ...perIpPerMinute('check_in', deps.limits.checkIn).rateLimit, allowList: rightKeyOnly } },
      schema: {
        operationId: 'checkIn',
        summary: 'Admit a pass holder to an event',
        description: "409 `api.access.pass_not_yet_available` (with `revealAt`) before the event's passRevealAt.",
        headers: scannerKeyHeader,
        security,
        body: access.checkInRequest,
        response: { 200: access.checkInResponse, ...errors(403, 404, 409) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.checkIn(req.body.code, req.body.eventId, doorOf(req));
    },
  );
  // The offline door: its snapshot of an event's admissions (paged; counted like event lists) and
  // the sync of its queued check-ins (counted like check-ins).
  app.get(
    '/access/events/:eventId/admissions',
    {
      ...scanner,
      config: {
        rateLimit: { ...perIpPerMinute('door_events', deps.limits.events).rateLimit, allowList: rightKeyOnly },
      },
      schema: {
        operationId: 'listAdmissions',
        summary: "One page of an event's admissions, for a door that may go offline",
        headers: scannerKeyHeader,
        security,
        params: access.eventParams,
        querystring: access.admissionsQuery,
        response: { 200: access.admissionsPage, ...errors(403, 404) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.admissions(req.params.eventId, req.query.after, req.query.limit, doorOf(req).scope);
    },
  );
  app.post(
    '/access/sync',
    {
      ...scanner,
      config: {
        rateLimit: { ...perIpPerMinute('door_sync', deps.limits.doorSync).rateLimit, allowList: rightKeyOnly },
      },
      // SYNC_BATCH_MAX items of at most 2000-character codes.
      bodyLimit: 512 * 1024,
      schema: {
        operationId: 'syncCheckIns',
        summary: 'Sync check-ins a door made offline; the server judges each and reports conflicts',
        headers: scannerKeyHeader,
        security,
        body: access.syncRequest,
        response: { 200: access.syncResponse, ...errors(403, 404) },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.sync(req.body, doorOf(req));
    },
  );
}
