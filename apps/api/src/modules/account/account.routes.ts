/**
 * Account rights routes (issue 13, item 6; beyond the spec, docs/decisions/001):
 * GET /auth/export, POST /auth/logout-others, DELETE /auth/account.
 */
import * as z from 'zod';
import { account } from '@tp/contract';
import { errors } from '../../lib/openapi.js';
import type { App, PreHandler } from '../../lib/http.js';
import type { AccountService } from './account.service.js';
import { perUserPerMinute } from '../../lib/rate-limit.js';

export function accountRoutes(
  app: App,
  /** `exportsPerMinute`: account exports per holder a minute (config `accountExportsPerMinute`). */
  deps: { account: AccountService; requireAuth: PreHandler; exportsPerMinute: number },
) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/export',
    {
      ...pre,
      config: perUserPerMinute('account_export', deps.exportsPerMinute),
      schema: {
        operationId: 'exportAccount',
        summary: 'Everything stored about the holder, as a JSON download',
        response: { 200: account.accountExport },
      },
    },
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
    {
      ...pre,
      config: { stepUp: 'sign_out_everywhere' },
      schema: {
        operationId: 'logoutOtherSessions',
        summary: 'Sign out every other session of the holder',
        response: { 200: account.logoutOthersResponse },
      },
    },
    async (req) => deps.account.logoutOthers(req.auth.userId, req.auth.sessionId),
  );
  const deleteAccount = {
    operationId: 'deleteAccount',
    summary:
      'Delete the account (refused while it holds upcoming tickets or listings, or is the only owner of an organisation)',
    response: { 204: z.null(), ...errors(409) },
  };
  app.delete(
    '/auth/account',
    { ...pre, config: { stepUp: 'account_deletion' }, schema: deleteAccount },
    async (req, reply) => {
      await deps.account.deleteAccount(req.auth.userId, req.ip);
      return reply.code(204).send(null);
    },
  );
}
