/**
 * The door scanner's routes (header `x-scanner-key`: the platform SCANNER_KEY or an organisation's door key, checked
 * by door-guard.ts; `x-door-device`: the device's stable id for the check-in log): GET /access/events,
 * GET /access/door (the key's mode and zone), GET /access/pass-keys, POST /access/check-in, and for the offline door GET /access/events/:eventId/admissions and
 * POST /access/sync.
 */
import * as z from 'zod';
import { access } from '@tp/contract';
import type { App } from '../../lib/http.js';
import type { AccessService } from './access.service.js';
import type { CheckInService } from './check-in.service.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';
import { errors, securityOf } from '../../lib/openapi.js';
import { doorGuard } from './door-guard.js';

/** Per-IP limits per minute of the door routes (config `checkInPerMinute`, `accessEventsPerMinute`, `scannerKeyFailuresPerMinute`, `doorSyncPerMinute`). */
export interface DoorLimits {
  checkIn: number;
  events: number;
  scannerKeyFailures: number;
  doorSync: number;
}

/** Registers the door scanner's routes; each counts a right key against its own per-IP limit. */
export function doorRoutes(app: App, deps: { access: AccessService; checkIn: CheckInService; limits: DoorLimits }) {
  const { limits } = deps;
  const { preValidation, rightKeyOnly, doorOf } = doorGuard(app, deps.checkIn, limits.scannerKeyFailures);
  const scanner = { preValidation };
  /** A door read counted like the event list (per IP, a right key only): events, door, pass keys, admissions. */
  const countedLikeEvents = () => ({
    ...scanner,
    config: { rateLimit: { ...perIpPerMinute('door_events', limits.events).rateLimit, allowList: rightKeyOnly } },
  });
  // The door key is a security scheme of the document (`doorKey`), checked by `scanner.preValidation`;
  // `x-door-device` is the door device's stable id, logged with each scan.
  const scannerKeyHeader = z.object({
    'x-door-device': z.string().optional().meta({ description: "the door device's stable id (logged with each scan)" }),
  });
  const security = securityOf('doorKey');
  app.get(
    '/access/events',
    {
      ...countedLikeEvents(),
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
    '/access/door',
    {
      ...countedLikeEvents(),
      schema: {
        operationId: 'getDoor',
        summary: "The door key's name, mode (entry or exit) and zone",
        headers: scannerKeyHeader,
        security,
        response: { 200: access.doorInfo },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.door(doorOf(req).scope);
    },
  );
  app.get(
    '/access/pass-keys',
    {
      ...countedLikeEvents(),
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
      config: { rateLimit: { ...perIpPerMinute('check_in', limits.checkIn).rateLimit, allowList: rightKeyOnly } },
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
      return deps.checkIn.checkIn(req.body.code, req.body.eventId, doorOf(req), req.body.direction);
    },
  );
  // The offline door: its snapshot of an event's admissions (paged; counted like event lists) and
  // the sync of its queued check-ins (counted like check-ins).
  app.get(
    '/access/events/:eventId/admissions',
    {
      ...countedLikeEvents(),
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
        rateLimit: { ...perIpPerMinute('door_sync', limits.doorSync).rateLimit, allowList: rightKeyOnly },
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
