/**
 * Refund requests (issue 46, decision 046). The organiser sets each event's refund policy (`lib/refund-policy.ts`
 * says when it takes a request); a holder asks for a refund of one ticket they hold, or withdraws the request while it
 * is pending; the organiser approves (the ticket is void as refunded: it stops admitting everywhere and leaves the
 * holder's list; the organiser's reference of the refund made in their own shop is recorded) or declines with a
 * reason the holder reads. While a request is pending the ticket does not move (the move rule, db/predicates.ts) but
 * still admits. Each change runs in one transaction under the row lock of the ticket (a request, a withdrawal) or of
 * the ticket, then the request (a decision: the same order, so no deadlock), and makes a new version of the ticket's
 * row so that the holder's listing shows it at once.
 */
import { fullName, type refunds } from '@tp/contract';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { isHeldBy, type Holder } from '../../db/predicates.js';
import { AppError } from '../../lib/app-error.js';
import { idCursor, paged } from '../../lib/cursor.js';
import { refundPolicyOf, refundWindow } from '../../lib/refund-policy.js';
import { holderMail } from '../../providers/mail/brand.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { ticketHoldersRepository } from '../../providers/mail/ticket-holders.repository.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { appendAudit } from '../audit/audit.repository.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import type { RequestOrganisation } from '../organiser-scope/org-auth.js';
import { refundsRepository as repo, type RefundItemRow, type RefundRequestRow } from './refunds.repository.js';

/**
 * Test-only switch (decision 046): the race tests' controls set `enabled` false, so that the same race run without
 * the row locks (the ticket's for a request, the request's for a decision) shows the tests catch what the locks
 * prevent. Nothing else sets it.
 */
export const refundLocks = { enabled: true };

type TicketRefund = refunds.TicketRefund;
type RefundItem = refunds.RefundRequestItem;

/** Whether a request's status is one the holder is shown. */
const isShown = (status: string | undefined): status is 'pending' | 'declined' =>
  status === 'pending' || status === 'declined';

/** The holder's view of a request (`ticketRefund.request`): a pending or declined one, else null. */
function shownRequest(r: Pick<RefundRequestRow, 'status' | 'createdAt' | 'declineReason'> | undefined) {
  const status = r?.status;
  if (!r || !isShown(status)) return null;
  return { status, createdAt: r.createdAt.toISOString(), declineReason: r.declineReason };
}

/** One request as the organiser reads it (`refundRequestItem`, times ISO 8601 UTC). */
function itemOf(r: RefundItemRow): RefundItem {
  const q = r.request;
  return {
    id: q.id,
    status: q.status as refunds.RefundRequestStatus,
    eventExternalId: r.eventExternalId,
    eventName: r.eventName,
    ticketExternalId: r.ticketExternalId,
    userTicketId: q.userTicketId,
    ticketTypeName: r.ticketTypeName,
    holderEmail: r.holderEmail,
    holderName: fullName(r),
    reason: q.reason,
    declineReason: q.declineReason,
    reference: q.reference,
    createdAt: q.createdAt.toISOString(),
    decidedAt: q.decidedAt?.toISOString() ?? null,
  };
}

/** What the refund parts take: the database, PUBLIC_URL (mail links) and the app's clock (UTC). */
interface RefundsDeps {
  database: Database;
  config: Pick<Config, 'publicUrl'>;
  /** The app's clock (UTC). */
  now: () => Date;
}

/** The holder's part: asking for a refund of a ticket I hold, and withdrawing the pending request. */
function createHolderRefunds(deps: RefundsDeps) {
  const db = deps.database.db;
  const lock = () => refundLocks.enabled;

  /** The ticket `userTicketId` if `holder` holds it and it is live (not revoked, its event not cancelled-and-over). */
  async function heldTicket(tx: DbOrTx, holder: Holder, userTicketId: number) {
    const row = await repo.ticket(tx, userTicketId, lock());
    if (!row || !isHeldBy(row, holder) || row.ticket.revokedAt !== null)
      throw new AppError('api.refund.ticket_not_found');
    return row;
  }

  /** The ticket's refund side after a change (`ticketRefund`), read in `tx`. */
  async function refundSide(tx: DbOrTx, row: Awaited<ReturnType<typeof heldTicket>>, at: Date): Promise<TicketRefund> {
    const window = refundWindow(row.event, at);
    const shown = await repo.shownOf(tx, row.ticket.id, row.ticket.holderId);
    const eligible = row.ticket.eventAccessUsedAt === null && !row.onSale;
    return {
      requestable: window.open && eligible && shown?.status !== 'pending',
      until: window.until?.toISOString() ?? null,
      request: shownRequest(shown),
    };
  }

  return {
    /**
     * POST /tickets/{userTicketId}/refund-request: asks the organiser for a refund of a ticket I hold. In one
     * transaction under the ticket's row lock: the request, a new version of the ticket's row and the organisation's
     * `refund_request.created` webhook.
     * @returns the ticket's refund side after it (`requestable` false, `request` the pending one).
     * @throws AppError `api.refund.ticket_not_found` (404: not a live ticket I hold), `api.refund.not_allowed` (409:
     *   the event's policy takes no request now), `api.refund.not_eligible` (409: checked in, on sale, or in an
     *   exchange offer), `api.refund.already_requested` (409: one is pending).
     */
    async request(holder: Holder, userTicketId: number, reason: string | undefined): Promise<TicketRefund> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const row = await heldTicket(tx, holder, userTicketId);
        if (!refundWindow(row.event, at).open) throw new AppError('api.refund.not_allowed');
        if (row.ticket.eventAccessUsedAt !== null || row.onSale) throw new AppError('api.refund.not_eligible');
        if (lock() && (await repo.pendingOf(tx, userTicketId))) throw new AppError('api.refund.already_requested');
        const created = await repo.insert(tx, {
          organisationId: row.event.organisationId,
          eventId: row.event.id,
          userTicketId,
          userId: holder.userId,
          reason: reason ?? null,
          createdAt: at,
        });
        if (!created) throw new AppError('api.refund.already_requested');
        await repo.touchTicket(tx, userTicketId);
        await enqueueTicketEvents(tx, 'refund_request.created', [userTicketId], at, {
          refundRequestId: created.id,
          reason: created.reason,
        });
        return refundSide(tx, row, at);
      });
    },

    /**
     * DELETE /tickets/{userTicketId}/refund-request: withdraws my pending request (the ticket may move again).
     * @throws AppError `api.refund.ticket_not_found` (404), `api.refund.not_found` (404: none pending).
     */
    async withdraw(holder: Holder, userTicketId: number): Promise<TicketRefund> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const row = await heldTicket(tx, holder, userTicketId);
        const pending = await repo.pendingOf(tx, userTicketId);
        if (!pending) throw new AppError('api.refund.not_found');
        await repo.decide(tx, pending.id, { status: 'withdrawn', decidedAt: at });
        await repo.touchTicket(tx, userTicketId);
        return refundSide(tx, row, at);
      });
    },
  };
}

/** The organiser's part: the event's refund policy, the list of requests, approve and decline. */
function createOrganiserRefunds(deps: RefundsDeps) {
  const db = deps.database.db;
  const lock = () => refundLocks.enabled;

  /**
   * The request `id` of the organisation, still pending, with its ticket (`repo.ticket`), both locked: the ticket's row
   * first, then the request's, the order of the holder's request and withdrawal (which lock the ticket, then write the
   * request), so that a decision and a withdrawal at once wait in turn instead of deadlocking.
   * @throws AppError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409).
   */
  async function pendingRequest(tx: DbOrTx, org: RequestOrganisation, id: number) {
    const found = await repo.requestOf(tx, org.id, id);
    if (!found) throw new AppError('api.org.refund_request_not_found');
    const ticket = await repo.ticket(tx, found.userTicketId, lock());
    const request = await repo.requestOf(tx, org.id, id, lock());
    if (!request) throw new AppError('api.org.refund_request_not_found');
    if (request.status !== 'pending') throw new AppError('api.org.refund_request_decided');
    return { request, ticket };
  }

  /** The organiser's item of request `id`, read in `tx`. */
  const itemIn = async (tx: DbOrTx, id: number) => itemOf((await repo.items(tx, [id]))[0]);

  return {
    /**
     * PUT /org/events/{externalId}/refund-policy: sets who may ask for a refund of the event's tickets (a new version
     * of the event's row: holders' listings show it at once); audited `event.refund_policy`.
     * @throws AppError `api.org.event_not_found` (404).
     */
    async setPolicy(
      org: RequestOrganisation,
      externalId: string,
      input: { mode: refunds.RefundPolicyMode; until?: string; deadline?: string },
    ): Promise<refunds.RefundPolicy> {
      const at = deps.now();
      const policy = {
        refundPolicy: input.mode,
        refundUntil: input.until ? new Date(input.until) : null,
        refundDeadline: input.deadline ? new Date(input.deadline) : null,
      };
      return db.transaction(async (tx) => {
        const event = await repo.event(tx, org.id, externalId, true);
        if (!event) throw new AppError('api.org.event_not_found');
        await repo.setPolicy(tx, event.id, policy);
        const answer = refundPolicyOf(policy);
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'event.refund_policy',
          resourceType: 'event',
          resourceId: externalId,
          detail: answer,
        });
        return answer;
      });
    },

    /**
     * GET /org/refund-requests?status=: the organisation's requests in one status, paged by cursor (pending oldest
     * first, the others newest first).
     * @throws AppError `api.org.invalid_cursor` (400).
     */
    async list(org: RequestOrganisation, q: { status: refunds.RefundRequestStatus; cursor?: string; limit: number }) {
      const rows = await repo.list(db, {
        organisationId: org.id,
        status: q.status,
        limit: q.limit,
        afterId: idCursor(q.cursor),
      });
      return paged(rows, q.limit, (r) => ({ i: r.request.id }), itemOf);
    },

    /**
     * POST /org/refund-requests/{id}/approve: in one transaction under the ticket's and the request's row locks, the request approved
     * with the organiser's reference, the ticket void as refunded (it stops admitting online and at offline doors,
     * `refunded`, and leaves the holder's list), wallet update jobs, the audit entry and the holder's e-mail (their
     * language, the organisation's brand, the reference).
     * @throws AppError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409),
     *   `api.org.ticket_revoked` (409: the ticket was revoked or voided meanwhile), `api.org.ticket_used` (409: the
     *   ticket was checked in meanwhile), `api.org.ticket_moved` (409: someone other than the asker holds it now); on
     *   any of these the request stays pending for a decline.
     */
    async approve(org: RequestOrganisation, id: number, reference: string | undefined): Promise<RefundItem> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const { request, ticket } = await pendingRequest(tx, org, id);
        // Void meanwhile (the organiser's revoke, a payment reversed or disputed): a refund recorded now would be a
        // second one, and would turn the revoke into "refunded" (a dispute won could not reinstate it).
        if (ticket.ticket.revokedAt !== null) throw new AppError('api.org.ticket_revoked');
        if (ticket.ticket.eventAccessUsedAt !== null) throw new AppError('api.org.ticket_used');
        // Someone else holds it now: a refund of the asker's would void the new holder's ticket.
        if (ticket.ticket.holderId !== request.userId) throw new AppError('api.org.ticket_moved');
        const held = await ticketHoldersRepository.ofTicket(tx, request.userTicketId);
        await repo.decide(tx, id, { status: 'approved', reference: reference ?? null, decidedAt: at });
        await repo.voidRefunded(tx, request.userTicketId, at);
        await enqueueTicketMovedJobs(tx, [request.userTicketId]);
        if (held) {
          const { ticket: facts, link, ...mail } = holderMail(held, deps.config.publicUrl, 'MY_TICKET');
          await enqueueMails(tx, at, [
            { template: 'refundApproved', ...mail, params: { ticket: facts, link, reference: reference ?? null } },
          ]);
        }
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'refund_request.approved',
          resourceType: 'refund_request',
          resourceId: id,
          detail: { userTicketId: request.userTicketId, reference: reference ?? null },
        });
        return itemIn(tx, id);
      });
    },

    /**
     * POST /org/refund-requests/{id}/decline: in one transaction under the ticket's and the request's row locks, the request declined
     * with the organiser's reason (a new version of the ticket's row: the holder's listing shows it), the audit entry
     * and the holder's e-mail with the reason (none when someone other than the asker holds the ticket now).
     * @throws AppError `api.org.refund_request_not_found` (404), `api.org.refund_request_decided` (409).
     */
    async decline(org: RequestOrganisation, id: number, reason: string): Promise<RefundItem> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const { request } = await pendingRequest(tx, org, id);
        await repo.decide(tx, id, { status: 'declined', declineReason: reason, decidedAt: at });
        await repo.touchTicket(tx, request.userTicketId);
        const held = await ticketHoldersRepository.ofTicket(tx, request.userTicketId);
        // Told only while the asker still holds it (a new holder never asked).
        if (held?.holderId === request.userId) {
          const { ticket: facts, link, ...mail } = holderMail(held, deps.config.publicUrl, 'MY_TICKET');
          await enqueueMails(tx, at, [
            { template: 'refundDeclined', ...mail, params: { ticket: facts, link, reason } },
          ]);
        }
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'refund_request.declined',
          resourceType: 'refund_request',
          resourceId: id,
          detail: { userTicketId: request.userTicketId, reason },
        });
        return itemIn(tx, id);
      });
    },
  };
}

/** The refund requests service (see the module's comment): the holder's and the organiser's parts. */
export function createRefundsService(deps: RefundsDeps) {
  return { ...createHolderRefunds(deps), ...createOrganiserRefunds(deps) };
}
export type RefundsService = ReturnType<typeof createRefundsService>;
