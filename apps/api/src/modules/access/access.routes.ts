/**
 * Routes: GET /auth/access/qrCodeData ({ ttl } seconds), GET /auth/access/qr (base64 PNG, no-store) and
 * POST /auth/access/pass-credential (the offline pass's device certificate, decision 010) for the
 * signed-in holder; then the door scanner's routes (door.routes.ts).
 */
import { access } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AccessService } from './access.service.js';
import type { CheckInService } from './check-in.service.js';
import { perUserPerMinute } from '../../lib/rate-limit.js';
import { errors, media } from '../../lib/openapi.js';
import { doorRoutes, type DoorLimits } from './door.routes.js';

/** Registers the holder's pass routes, then the door scanner's (door.routes.ts). */
export function accessRoutes(
  app: App,
  deps: {
    access: AccessService;
    requireAuth: PreHandler;
    checkIn: CheckInService;
    /** The door routes' per-IP limits, and pass credentials per holder per minute (config `passCredentialsPerMinute`). */
    limits: DoorLimits & { passCredentials: number };
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
      // Never compressed (decision 043): a base64 PNG of 616 characters (over the 512-byte threshold) came out of
      // brotli 240 bytes smaller for a compressor stream per pass, about 0.3 ms of CPU, on the route the gate calls most.
      compress: false,
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
  doorRoutes(app, deps);
}
