/**
 * The organisation API's tickets (issue 12): PUT /org/tickets/{externalId} issues or re-issues one ticket (the
 * rules are in `ticket-issuing.ts`), DELETE revokes it.
 */
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../org-auth.js';
import { enqueueTicketEvents } from '../outbound-events.js';
import { enqueueTicketMovedJobs } from '../../../providers/jobs/ticket-moved-jobs.js';
import type { OrgApiDeps, UpsertStatus } from './deps.js';
import type { TicketInput, TicketIssuing } from './ticket-issuing.js';

/** The tickets part of the organisation API: issue or re-issue one ticket, revoke it. */
export function createOrgTicketsService(
  deps: Pick<OrgApiDeps, 'database' | 'mailQueue' | 'now'>,
  issuing: TicketIssuing,
) {
  const db = deps.database.db;
  const { planTickets, applyPlan, mailsOf } = issuing;
  return {
    /**
     * PUT /org/tickets/{externalId}: issues (or re-issues) the ticket; see the module's rules.
     * @throws AppError `api.org.ticket_type_not_found` (404), `api.org.ticket_revoked`, `api.org.ticket_type_locked`,
     *   `api.org.ticket_in_resale`, `api.org.ticket_used`, `api.org.ticket_moved` (409).
     */
    async upsertTicket(org: RequestOrganisation, input: TicketInput): Promise<UpsertStatus> {
      const at = deps.now();
      const { status, issued } = await db.transaction(async (tx) => {
        const [row] = await planTickets(tx, org, [input], true);
        if (row.kind === 'error') throw new AppError(row.message);
        const issued = await applyPlan(tx, org, [row], at);
        const status: UpsertStatus =
          row.kind === 'create' ? 'created' : row.kind === 'reissue' ? 'updated' : 'unchanged';
        return { status, issued };
      });
      deps.mailQueue.pushBuilt(() => mailsOf(org, issued), { organisationId: org.id });
      return status;
    },

    /**
     * DELETE /org/tickets/{externalId}: revokes the ticket (it leaves the holder's lists, may not move and no
     * longer admits); queues `ticket.revoked`. Revoking a revoked ticket changes nothing.
     * @throws AppError `api.org.ticket_not_found` (404), `api.org.ticket_in_resale` (409: listed for resale, or sold
     *   and awaiting its buyer's redeem).
     */
    async revokeTicket(org: RequestOrganisation, externalId: string): Promise<void> {
      const at = deps.now();
      await db.transaction(async (tx) => {
        const [ticket] = await repo.ticketsByExternalIds(tx, org.id, [externalId], true);
        if (!ticket) throw new AppError('api.org.ticket_not_found');
        if (ticket.revokedAt) return;
        if (ticket.listed || ticket.holderId === null) throw new AppError('api.org.ticket_in_resale');
        await repo.revoke(tx, ticket.id, at);
        await repo.insertHistory(tx, [
          { userTicketId: ticket.id, fromUserId: ticket.holderId, toUserId: null, kind: 'REVOKE', at },
        ]);
        await enqueueTicketEvents(tx, 'ticket.revoked', [ticket.id], at, {});
        await enqueueTicketMovedJobs(tx, [ticket.id]);
      });
    },
  };
}
