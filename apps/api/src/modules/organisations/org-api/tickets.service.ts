/**
 * The organisation API's tickets (issue 12): PUT /org/tickets/{externalId} issues or re-issues one ticket (the
 * rules are in `ticket-issuing.ts`), DELETE revokes it, POST …/resend e-mails the holder their ticket again.
 */
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { enqueueTicketEvents } from '../../outbound-webhooks/outbound-events.js';
import { enqueueTicketMovedJobs } from '../../../providers/jobs/ticket-moved-jobs.js';
import type { OrgApiDeps, UpsertStatus } from './deps.js';
import { appendAudit } from '../../audit/audit.repository.js';
import type { IssuedBatch, TicketInput, TicketIssuing } from './ticket-issuing.js';
import { organisationsRepository } from '../organisations.repository.js';
import { pickLang } from '../../../lib/lang.js';
import { holderMail } from '../../../providers/mail/brand.js';
import { ticketHoldersRepository } from '../../../providers/mail/ticket-holders.repository.js';
import { enqueueMails } from '../../../providers/mail/mail-jobs.js';

/** The tickets part of the organisation API: issue or re-issue one ticket, revoke it. */
export function createOrgTicketsService(deps: Pick<OrgApiDeps, 'database' | 'now' | 'config'>, issuing: TicketIssuing) {
  const db = deps.database.db;
  const { planTickets, applyPlan, enqueueIssuedMails } = issuing;
  return {
    /**
     * PUT /org/tickets/{externalId}: issues (or re-issues) the ticket; see the module's rules. Audited
     * `ticket.issued` or `ticket.reissued` in the same transaction, naming the holder's account id and, for a
     * re-issue, the account it was taken from (ids only: no holder e-mail; issue 39 item 7).
     * @throws AppError `api.org.ticket_type_not_found` (404), `api.org.ticket_revoked`, `api.org.ticket_type_locked`,
     *   `api.org.ticket_in_resale`, `api.org.ticket_used`, `api.org.ticket_moved` (409).
     */
    async upsertTicket(org: RequestOrganisation, input: TicketInput): Promise<UpsertStatus> {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const [row] = await planTickets(tx, org, [input], true);
        if (row.kind === 'error') throw new AppError(row.message);
        const issued = await applyPlan(tx, org, [row], at);
        await enqueueIssuedMails(tx, issued, at);
        const status: UpsertStatus =
          row.kind === 'create' ? 'created' : row.kind === 'reissue' ? 'updated' : 'unchanged';
        const [item] = issued.items;
        if (status !== 'unchanged')
          await appendAudit(tx, org.id, org.actor, at, {
            action: status === 'created' ? 'ticket.issued' : 'ticket.reissued',
            resourceType: 'ticket',
            resourceId: input.externalId,
            // Whose it is, and for a re-issue whose it was (account ids, as an import's entry names them).
            detail: {
              ticketTypeExternalId: input.ticketTypeExternalId,
              ...(item ? { holderId: item.holderId } : {}),
              ...(item?.reissued ? { fromHolderId: item.fromHolderId } : {}),
            },
          });
        return status;
      });
    },

    /**
     * POST /org/tickets/{externalId}/resend (issue 21): e-mails the ticket's current holder their "your ticket"
     * mail again (the issue mail: in their language, under the organisation's brand, with the `.ics`), as a mail
     * job (decision 030). The route limits it to `TICKET_RESENDS_PER_HOUR` per ticket.
     * @returns the e-mail it goes to.
     * @throws AppError `api.org.ticket_not_found` (404), `api.org.ticket_not_held` (409: revoked, or held under a
     *   resale code), `api.org.event_cancelled` (409: its event is cancelled, and "your ticket" would contradict the
     *   cancellation the holder was sent; issue 46).
     */
    async resendTicketMail(org: RequestOrganisation, externalId: string): Promise<{ email: string }> {
      const ticket = await repo.ticketForMail(db, org.id, externalId);
      if (!ticket) throw new AppError('api.org.ticket_not_found');
      if (ticket.revokedAt || !ticket.holder) throw new AppError('api.org.ticket_not_held');
      if (ticket.event.cancelledAt) throw new AppError('api.org.event_cancelled');
      const holder = ticket.holder;
      const organisation = (await organisationsRepository.organisationById(db, org.id)) ?? null;
      const batch: IssuedBatch = {
        organisation,
        items: [
          {
            userTicketId: ticket.userTicketId,
            input: { externalId, ticketTypeExternalId: '', holderEmail: holder.email },
            reissued: false,
            holderId: holder.id,
            fromHolderId: null,
            email: holder.email,
            locale: pickLang(holder.locale),
            ticketName: ticket.ticketName,
            event: ticket.event,
            eventExternalId: ticket.event.externalId,
          },
        ],
      };
      await enqueueIssuedMails(db, batch, deps.now());
      return { email: holder.email };
    },

    /**
     * DELETE /org/tickets/{externalId}: revokes the ticket (it leaves the holder's lists, may not move and no
     * longer admits); queues `ticket.revoked`, e-mails the holder (`ticketRevoked`, issue 41 point 6, unless the
     * ticket was already used) and records it in the audit trail, in one transaction. Revoking a revoked ticket
     * changes (and records, and mails) nothing, except one void while its payment is disputed (issue 46): revoked
     * now, a dispute won no longer gives it back.
     * @throws AppError `api.org.ticket_not_found` (404), `api.org.ticket_in_resale` (409: listed for resale,
     *   returned to an exchange queue (issue 45), or sold and awaiting its buyer's redeem).
     */
    async revokeTicket(org: RequestOrganisation, externalId: string): Promise<void> {
      const at = deps.now();
      await db.transaction(async (tx) => {
        const [ticket] = await repo.ticketsByExternalIds(tx, org.id, [externalId], true);
        if (!ticket) throw new AppError('api.org.ticket_not_found');
        // A ticket void while its payment is disputed is revoked for good: a dispute won does not give it back.
        if (ticket.revokedAt && ticket.revokedReason !== 'disputed') return;
        if (ticket.listed || ticket.holderId === null) throw new AppError('api.org.ticket_in_resale');
        const held = await ticketHoldersRepository.ofTicket(tx, ticket.id);
        await repo.revoke(tx, ticket.id, at);
        if (held) {
          const { ticket: facts, link, ...mail } = holderMail(held, deps.config.publicUrl, 'MY_TICKET');
          await enqueueMails(tx, at, [{ template: 'ticketRevoked', ...mail, params: { ticket: facts, link } }]);
        }
        await repo.insertHistory(tx, [
          { userTicketId: ticket.id, fromUserId: ticket.holderId, toUserId: null, kind: 'REVOKE', at },
        ]);
        await enqueueTicketEvents(tx, 'ticket.revoked', [ticket.id], at, {});
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'ticket.revoked',
          resourceType: 'ticket',
          resourceId: externalId,
          // The number the holder reads ("Ticket #13"), beside the organiser's id (issue 41 point 12, re-walk).
          detail: { number: ticket.id },
        });
        await enqueueTicketMovedJobs(tx, [ticket.id]);
      });
    },
  };
}
