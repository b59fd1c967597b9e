/**
 * Routes: GET /auth/access/qrCodeData ({ ttl } seconds) and GET /auth/access/qr (base64 PNG, no-store)
 * for the signed-in holder; POST /access/check-in and GET /access/events for the door scanner
 * (header `x-scanner-key`, see check-in.service.ts).
 */
import * as z from 'zod';
import { access } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AccessService } from './access.service.js';
import type { CheckInService } from './check-in.service.js';
import { perIpPerMinute } from '../../lib/rate-limit.js';

export function accessRoutes(
  app: App,
  deps: {
    access: AccessService;
    requireAuth: PreHandler;
    checkIn: CheckInService;
    /** Check-ins per IP per minute (config `checkInPerMinute`). */
    checkInPerMinute: number;
  },
) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/access/qrCodeData',
    { ...pre, schema: { tags: ['access'], response: { 200: access.qrCodeData } } },
    async () => ({ ttl: deps.access.ttlSeconds }),
  );
  app.get(
    '/auth/access/qr',
    { ...pre, schema: { tags: ['access'], response: { 200: z.string() } } },
    async (req, reply) => {
      const png = await deps.access.qrPng(req.auth.userId);
      return reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(png);
    },
  );

  // preValidation: after the rate limit (onRequest) counts the attempt, before the body is looked at.
  const scanner = {
    preValidation: async (req: { headers: Record<string, unknown> }) =>
      deps.checkIn.authorizeScanner(req.headers['x-scanner-key']),
  };
  const scannerKeyHeader = z.object({ 'x-scanner-key': z.string().optional() });
  app.get(
    '/access/events',
    {
      ...scanner,
      schema: {
        tags: ['access'],
        summary: 'Events the door scanner can admit to',
        headers: scannerKeyHeader,
        response: { 200: access.scannerEvents },
      },
    },
    async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.events();
    },
  );
  app.post(
    '/access/check-in',
    {
      ...scanner,
      config: perIpPerMinute(deps.checkInPerMinute),
      schema: {
        tags: ['access'],
        summary: 'Admit a pass holder to an event',
        headers: scannerKeyHeader,
        body: access.checkInRequest,
        response: { 200: access.checkInResponse },
      },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return deps.checkIn.checkIn(req.body.code, req.body.eventId);
    },
  );
}
