/**
 * Cancelling an event (issue 46 "Cancel an event", decision 045): `POST /v1/org/events/{externalId}/cancel`.
 *
 * The cancel itself is one transaction: the event is marked cancelled (from then no ticket of it admits, online or at
 * an offline door once it syncs or refreshes its list, and none moves), its resale listings are taken off sale, its
 * exchange queue closes, the audit trail and the organisation's `event.cancelled` webhook record it, and the cancel run
 * is queued. The run (job `event_cancel`, durable queue, decision 030) tells the holders in batches of
 * {@link CANCEL_BATCH} tickets, by ticket id: each batch's e-mails (branded, in the holder's language, the organiser's
 * words, the `.ics` withdrawn) and wallet updates are queued in the transaction that moves the run's cursor past it,
 * so a restart halfway goes on from the last batch: no holder is told twice and none is missed. The same transaction
 * queues one {@link CANCEL_REFUND_JOB} per paid resale order or exchange offer of the event whose seller is not paid out
 * yet: its buyer is refunded in full and the seller's payout cancelled (decision 045).
 */
import * as z from 'zod';
import type { organisations as contract } from '@tp/contract';
import { AppError } from '../../../lib/app-error.js';
import { appendAudit } from '../../audit/audit.repository.js';
import { enqueueOutboundEvent } from '../../outbound-webhooks/outbound-events.js';
import { holderMail } from '../../../providers/mail/brand.js';
import { enqueueMails } from '../../../providers/mail/mail-jobs.js';
import { ticketHoldersRepository } from '../../../providers/mail/ticket-holders.repository.js';
import { enqueueJobs } from '../../../providers/jobs/job-queue.js';
import { enqueueTicketMovedJobs } from '../../../providers/jobs/ticket-moved-jobs.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { eventCancelRepository as repo } from '../event-cancel.repository.js';
import { eventOf, type OrgApiDeps } from './deps.js';

/** The job kind of a cancel run (lane `other`). */
export const EVENT_CANCEL_JOB = 'event_cancel';
/** Tickets told per transaction of the run: 500 e-mails and one wallet update job of each kind. */
export const CANCEL_BATCH = 500;
/**
 * The job kind of refunding one payment for the cancelled event's tickets whose seller is not paid out yet (payload
 * `{ orderId }`: a resale order's or an exchange offer's id); its handler is the resale module's (cancel-refund.ts).
 */
export const CANCEL_REFUND_JOB = 'cancel_refund';

const cancelJobPayload = z.object({ eventId: z.number().int().positive() });

export function createEventCancel(deps: Pick<OrgApiDeps, 'database' | 'config' | 'now'>) {
  const db = deps.database.db;

  /** One batch of at most `batch` tickets of the run of `eventId`: true when there may be more. */
  async function tellBatch(eventId: number, batch = CANCEL_BATCH): Promise<boolean> {
    const at = deps.now();
    return db.transaction(async (tx) => {
      const run = await repo.lockRun(tx, eventId);
      if (!run || run.cursor === null) return false;
      const rows = await ticketHoldersRepository.ofEventAfter(tx, eventId, run.cursor, batch);
      if (!rows.length) {
        await repo.setCursor(tx, eventId, null);
        return false;
      }
      // A sequence above any "event changed" mail's (those use the change's Unix seconds), so calendars drop it.
      const sequence = Math.floor(at.getTime() / 1000) + 1;
      await enqueueMails(
        tx,
        at,
        rows.map((r) => {
          const { ticket, link, ...mail } = holderMail(r, deps.config.publicUrl, 'MY_TICKET');
          return {
            template: 'eventCancelled' as const,
            ...mail,
            params: { ticket, link, at, sequence, reason: run.reason },
          };
        }),
      );
      await enqueueTicketMovedJobs(
        tx,
        rows.map((r) => r.userTicketId),
      );
      // A short batch was the last: the run is done (null), else it goes on after this batch's last ticket.
      const more = rows.length === batch;
      await repo.setCursor(tx, eventId, more ? rows[rows.length - 1].userTicketId : null);
      return more;
    });
  }

  return {
    /**
     * POST /org/events/{externalId}/cancel: with `dryRun`, what a cancel would touch; else cancels the event (see the
     * module's comment) and answers what it touched. Cancelling a cancelled event changes nothing and answers its
     * first cancel time. An event that has ended (`endsAt` at or before now) is not cancelled: the show took place, and
     * a cancel would refund its resale buyers and tell its holders it was called off. An event under way may be.
     * @throws AppError `api.org.event_not_found` (404), `api.org.event_ended` (409: not a dry run, not cancelled
     *   before, and ended).
     */
    async cancel(
      org: RequestOrganisation,
      externalId: string,
      input: { reason?: string; dryRun?: boolean },
    ): Promise<contract.EventCancelResponse> {
      const event = await eventOf(db, org, externalId);
      if (input.dryRun)
        return {
          dryRun: true,
          cancelledAt: event.cancelledAt?.toISOString() ?? null,
          ...(await repo.counts(db, event.id)),
        };
      const at = deps.now();
      if (!event.cancelledAt && event.endsAt <= at) throw new AppError('api.org.event_ended');
      const reason = input.reason ?? null;
      return db.transaction(async (tx) => {
        const counts = await repo.counts(tx, event.id);
        const marked = await repo.markCancelled(tx, event.id, at, reason);
        if (marked.now) {
          await repo.delist(tx, event.id, at);
          await repo.closeExchange(tx, event.id, at);
          await appendAudit(tx, org.id, org.actor, at, {
            action: 'event.cancelled',
            resourceType: 'event',
            resourceId: externalId,
            detail: { reason, tickets: counts.tickets },
          });
          await enqueueOutboundEvent(
            tx,
            org.id,
            'event.cancelled',
            { eventExternalId: externalId, reason, tickets: counts.tickets },
            at,
          );
          // One durable job per payment not settled with its seller yet: refunded to its buyer, once (decision 045).
          const unsettled = await repo.unsettledPayments(tx, event.id);
          await enqueueJobs(tx, [
            { kind: EVENT_CANCEL_JOB, payload: { eventId: event.id } },
            ...unsettled.map((p) => ({ kind: CANCEL_REFUND_JOB, payload: p })),
          ]);
        }
        return { dryRun: false, cancelledAt: marked.cancelledAt.toISOString(), ...counts };
      });
    },

    /**
     * The `event_cancel` job: tells the event's holders, batch after batch, until every one was told. A batch that
     * fails is retried with the job (the cursor did not move); a job claimed again after a crash goes on from the
     * cursor.
     */
    async runCancelJob(payload: unknown): Promise<void> {
      const { eventId } = cancelJobPayload.parse(payload);
      while (await tellBatch(eventId)) {
        // The next batch, in its own transaction.
      }
    },

    /** One batch of the cancel run of `eventId` (`batch` tickets): what a run does between two crashes (tests). */
    cancelRunStep: (eventId: number, batch: number): Promise<boolean> => tellBatch(eventId, batch),
  };
}
