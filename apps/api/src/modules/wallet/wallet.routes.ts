/**
 * Routes: GET /tickets/{userTicketId}/wallet/apple (the holder's signed `.pkpass`),
 * GET /tickets/{userTicketId}/wallet/google (`{ saveUrl }`) and GET /wallet/test-ca.pem
 * (in wallet test mode, the CA that signs test passes, so anyone can verify one). Decision 029.
 */
import { wallet } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, media } from '../../lib/openapi.js';
import type { WalletService } from './wallet.service.js';

/** Registers the wallet routes; the pass routes take the holder's token (`requireAuth`), the test CA none. */
export function walletRoutes(app: App, deps: { wallet: WalletService; requireAuth: PreHandler }) {
  app.get(
    '/tickets/:userTicketId/wallet/apple',
    {
      preHandler: deps.requireAuth,
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
      preHandler: deps.requireAuth,
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
      schema: {
        operationId: 'getWalletTestCa',
        summary: "Wallet test mode's CA certificate (PEM), which signs every test pass (404 outside test mode)",
        response: { 200: media('application/x-pem-file', wallet.testCaPem, 'The CA certificate, PEM'), ...errors(404) },
      },
    },
    async (_req, reply) => reply.type('application/x-pem-file').send(deps.wallet.testCaPem()),
  );
}
