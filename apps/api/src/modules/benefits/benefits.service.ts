/**
 * Unlocking digital benefits (spec sections 2 Ticket page, 4 Benefit, 6): only the holder, only
 * `isUnlockable` benefits of type `benefits.digital`; unlocking again returns the same code. A code revealed by
 * one holder stays theirs: after a gift, resale or redeem the next holder sees the benefit as claimed (issue 13).
 */
import { DIGITAL_BENEFIT_TYPE } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { isHeldBy, type Holder } from '../../db/predicates.js';
import { benefitsRepository as repo } from './benefits.repository.js';

export function createBenefitsService(deps: { database: Database; now: () => Date }) {
  const db = deps.database.db;
  return {
    /**
     * POST /mobile/unlock/{id} with `{ userTicketBenefitId }`; `id` is the user ticket id.
     * @throws AppError `api.unlock.invalid_benefit_id` (404: unknown, not the caller's, not on that ticket, or
     *   on a ticket of another organisation than the `X-Organisation` header names),
     *   `api.unlock.validation_error` (400: not an unlockable digital benefit),
     *   `api.unlock.already_claimed` (409: an earlier holder of the ticket revealed the code).
     */
    async unlock(holder: Holder, userTicketId: number, userTicketBenefitId: number): Promise<{ redeemCode: string }> {
      const { userId } = holder;
      return db.transaction(async (tx) => {
        const row = await repo.lockHeld(tx, userTicketBenefitId);
        if (!row || !isHeldBy(row, holder) || row.ticket.id !== userTicketId)
          throw new AppError('api.unlock.invalid_benefit_id');
        if (
          !row.benefit.isUnlockable ||
          row.benefit.type !== DIGITAL_BENEFIT_TYPE ||
          !row.benefit.redeemCode ||
          row.held.purchasedAmount <= 0
        ) {
          throw new AppError('api.unlock.validation_error');
        }
        if (row.held.unlockedAt && row.held.unlockedBy !== userId) throw new AppError('api.unlock.already_claimed');
        if (!row.held.unlockedAt) await repo.markUnlocked(tx, row.held.id, userId, deps.now());
        return { redeemCode: row.benefit.redeemCode };
      });
    },
  };
}
export type BenefitsService = ReturnType<typeof createBenefitsService>;
