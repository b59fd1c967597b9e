/** Routes: GET /auth/access/qrCodeData ({ ttl } seconds) and GET /auth/access/qr (base64 PNG, no-store). */
import * as z from 'zod';
import { access } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AccessService } from './access.service.js';

export function accessRoutes(app: App, deps: { access: AccessService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get('/auth/access/qrCodeData', { ...pre, schema: { tags: ['access'], response: { 200: access.qrCodeData } } },
    async () => ({ ttl: deps.access.ttlSeconds }));
  app.get('/auth/access/qr', { ...pre, schema: { tags: ['access'], response: { 200: z.string() } } }, async (req, reply) => {
    const png = await deps.access.qrPng(req.auth.userId);
    return reply.header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(png);
  });
}
