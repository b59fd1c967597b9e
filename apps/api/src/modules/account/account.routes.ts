/**
 * Account rights routes (issue 13, item 6; beyond the spec, docs/decisions/001):
 * GET /auth/export, POST /auth/logout-others, DELETE /auth/account.
 */
import { account } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { AccountService } from './account.service.js';

export function accountRoutes(app: App, deps: { account: AccountService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/export',
    { ...pre, schema: { tags: ['account'], response: { 200: account.accountExport } } },
    async (req, reply) => {
      const data = await deps.account.exportData(req.auth.userId, req.auth.sessionId);
      const day = data.exportedAt.slice(0, 10);
      return reply
        .header('Content-Disposition', `attachment; filename="my-data-${day}.json"`)
        .header('Cache-Control', 'no-store')
        .send(data);
    },
  );
  app.post(
    '/auth/logout-others',
    { ...pre, schema: { tags: ['account'], response: { 200: account.logoutOthersResponse } } },
    async (req) => deps.account.logoutOthers(req.auth.userId, req.auth.sessionId),
  );
  app.delete('/auth/account', { ...pre, schema: { tags: ['account'] } }, async (req, reply) => {
    await deps.account.deleteAccount(req.auth.userId);
    return reply.code(204).send();
  });
}
