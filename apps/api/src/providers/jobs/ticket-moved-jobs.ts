/**
 * The jobs that follow a ticket move (issue 22, decision 029 "kept true"): a gift, resale, swap or revocation, and
 * a return to the exchange queue or its end (issue 45: the pass shows no code meanwhile), enqueues them in its own
 * transaction, so the installed wallet passes of the old holder are updated (Apple: the
 * pass voided and every registered device pushed; Google: the object set `INACTIVE`) once the move commits, by
 * the durable job queue's worker (decision 030; within JOB_POLL_MS, at once on this instance). The wallet module
 * registers the handlers of these kinds; a mover only names the tickets.
 */
import * as z from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { enqueueJobs } from './job-queue.js';

/** Job kinds run after a ticket moves: Apple's pass update (void + push) and Google's object update. */
export const TICKET_MOVED_JOB_KINDS = ['wallet.apple_update', 'wallet.google_update'] as const;
export type TicketMovedJobKind = (typeof TICKET_MOVED_JOB_KINDS)[number];

/** Payload of every ticket-moved job: the tickets (user_tickets.id) that moved or were revoked. */
export const ticketMovedPayload = z.object({ userTicketIds: z.array(z.number().int().positive()).min(1) });
export type TicketMovedPayload = z.infer<typeof ticketMovedPayload>;

/**
 * Enqueues one job of each {@link TICKET_MOVED_JOB_KINDS} for `userTicketIds`, inside the mover's transaction
 * `tx`. No-op for an empty list.
 */
export async function enqueueTicketMovedJobs(tx: DbOrTx, userTicketIds: readonly number[]): Promise<void> {
  if (!userTicketIds.length) return;
  const payload: TicketMovedPayload = { userTicketIds: [...userTicketIds] };
  await enqueueJobs(
    tx,
    TICKET_MOVED_JOB_KINDS.map((kind) => ({ kind, payload })),
  );
}
