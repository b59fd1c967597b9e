/** A paid order's code (spec section 4 Redeem): its PDF for whoever knows it, and redeeming it. */
import { AppError } from '../../lib/app-error.js';
import { sameHash } from '../../lib/secrets.js';
import { isUuid } from '@tp/contract/fields';
import { codePdfFileName } from '../../providers/mail/templates.js';
import { resaleRepository as repo } from './resale.repository.js';
import { ticketTypeTitle, hashCode } from './resale.code.js';
import { orderCodePdf } from './order-code-pdf.js';
import type { OrderDeps } from './order.service.js';

/** The code part of the order service. */
export function createRedeem(deps: Pick<OrderDeps, 'database' | 'config' | 'now'>) {
  const { config, now } = deps;
  const db = deps.database.db;
  return {
    /**
     * POST /resell/{ticketId}: the code PDF of a paid order, for whoever knows its code.
     * @throws AppError `api.resell.redeem.invalid_code` (404).
     */
    async codePdf(orderId: string, code: string): Promise<{ pdf: Buffer; fileName: string }> {
      const row = isUuid(orderId) ? await repo.order(db, orderId) : undefined;
      if (!row || row.order.status !== 'PAID' || !sameHash(row.order.codeHash, hashCode(code)))
        throw new AppError('api.resell.redeem.invalid_code');
      const { pdf, lang } = await orderCodePdf(config.publicUrl, row, code.trim().toUpperCase());
      return { pdf, fileName: codePdfFileName(lang) };
    },

    /**
     * POST /resell/redeem/{secret}: moves the tickets held under the code to the caller.
     * @throws AppError `api.resell.redeem.invalid_code` (404), `api.resell.redeem.already_redeemed` (409).
     */
    async redeem(userId: number, secret: string): Promise<{ name: string; logo: string | null }> {
      const at = now();
      return db.transaction(async (tx) => {
        const order = await repo.orderByCodeHash(tx, hashCode(secret));
        // A refunded or disputed order's code no longer redeems (issue 46): its tickets do not admit.
        if (!order || order.status !== 'PAID') throw new AppError('api.resell.redeem.invalid_code');
        if (order.redeemedAt) throw new AppError('api.resell.redeem.already_redeemed');
        const ids = await repo.orderTicketIds(tx, order.id);
        await repo.redeem(tx, { orderId: order.id, userId, ticketIds: ids, at });
        const row = await repo.order(tx, order.id);
        return { name: ticketTypeTitle(row.event, row.type), logo: row.type.logo ?? row.event.logo };
      });
    },
  };
}
