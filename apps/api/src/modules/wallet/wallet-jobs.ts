/**
 * The wallet's handlers of the ticket-moved jobs (decision 029 "kept true", decision 030 queue):
 * `wallet.apple_update` voids the old holder's Apple pass and pushes its devices, `wallet.google_update` sets the
 * old holder's Google object `INACTIVE`. Both are idempotent (a retried job changes nothing more).
 */
import type { JobHandler } from '../../providers/jobs/job-queue.js';
import { ticketMovedPayload, type TicketMovedJobKind } from '../../providers/jobs/ticket-moved-jobs.js';
import type { WalletService } from './wallet.service.js';

/** The handlers by job kind, for `startJobWorker({ handlers })`. A malformed payload throws (kept as failed). */
export function walletJobHandlers(wallet: WalletService): Record<TicketMovedJobKind, JobHandler> {
  return {
    // A retry pushes the passes its first attempt voided too (that attempt may have failed before pushing them).
    'wallet.apple_update': async (payload, ctx) => {
      await wallet.appleUpdate(ticketMovedPayload.parse(payload).userTicketIds, { retry: ctx.attempt > 1 });
    },
    'wallet.google_update': async (payload) => {
      await wallet.googleUpdate(ticketMovedPayload.parse(payload).userTicketIds);
    },
  };
}
