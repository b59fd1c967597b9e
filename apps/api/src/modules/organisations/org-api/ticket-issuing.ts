/**
 * Issuing tickets, shared by PUT /org/tickets/{externalId} and the CSV import (issue 12): `planTickets` decides
 * row by row what issuing would do, `applyPlan` writes a plan without errors.
 * - a new externalId creates the ticket for the holder's account (created when needed, in the row's `holderLanguage`,
 *   default `en`, issue 40), with one
 *   of each benefit of its type, records an ISSUE in the ticket history and queues `ticket.issued`;
 * - the same externalId with the e-mail it was last issued to changes nothing, even after the holder gifted or
 *   sold it (the organiser's data describes the issue, not the current holder);
 * - another e-mail re-issues it (REISSUE: the new holder gets it, `ticket.issued` again) only while it is still
 *   with the account it was issued to, unused, not listed for resale and not revoked; otherwise 409
 *   (`api.org.ticket_moved`, `api.org.ticket_used`, `api.org.ticket_in_resale`, `api.org.ticket_revoked`);
 * - another ticket type is refused (`api.org.ticket_type_locked`): revoke the ticket and issue a new one.
 * Holders are e-mailed in their account's language through the durable job queue: `applyPlan` returns what was
 * issued, `enqueueIssuedMails` enqueues their mail jobs in the same transaction (rendered when sent, decision 030).
 * Its parts: issuing-plan.ts (the plan, and whether a prepared write still fits it) and issuing-write.ts (accounts,
 * the prepared write and its statements).
 */
import type { MessageKey } from '@tp/contract';
import type { DbOrTx } from '../../../db/client.js';
import { panelLink, type MailOrganisation, walletLinks } from '../../../providers/mail/brand.js';
import { enqueueMails } from '../../../providers/mail/mail-jobs.js';
import type { EventRow, IssuedTicketRow, TicketTypeRow } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import type { OrgApiDeps } from './deps.js';
import type { pickLang, Lang } from '../../../lib/lang.js';
import { planTickets, stillFits } from './issuing-plan.js';
import { prepareAccounts, prepareWrite, writePrepared } from './issuing-write.js';

/**
 * One ticket to issue: the organiser's ids and the holder's e-mail (already validated), and the language of the
 * holder's account should this create it (`holderLanguage`, default `en`; an existing account keeps its own).
 */
export interface TicketInput {
  externalId: string;
  ticketTypeExternalId: string;
  holderEmail: string;
  holderLanguage?: Lang;
}

/** What issuing one row will do, or why it cannot. */
export type PlannedRow =
  | { kind: 'create'; input: TicketInput; type: TicketTypeRow }
  | { kind: 'reissue'; input: TicketInput; type: TicketTypeRow; ticket: IssuedTicketRow }
  | { kind: 'unchanged'; input: TicketInput }
  | { kind: 'error'; input: TicketInput; message: MessageKey; field?: string };

/** What a written plan issued: enough to build the holders' mails after the commit. */
export interface IssuedBatch {
  /** The issuing organisation: the mails' brand and `?org=`; null only when nothing was issued. */
  organisation: MailOrganisation | null;
  items: {
    userTicketId: number;
    input: TicketInput;
    reissued: boolean;
    /** The holder's account id now; for a re-issue, `fromHolderId` the account it was taken from (audit trail). */
    holderId: number;
    fromHolderId: number | null;
    email: string;
    locale: ReturnType<typeof pickLang>;
    ticketName: string;
    event: EventRow;
    eventExternalId: string | null;
  }[];
}

/** How many rows of a plan create, re-issue (`updated`) and change nothing. */
export const countPlan = (plan: PlannedRow[]) => ({
  created: plan.filter((p) => p.kind === 'create').length,
  updated: plan.filter((p) => p.kind === 'reissue').length,
  unchanged: plan.filter((p) => p.kind === 'unchanged').length,
});

/** The issuing rules (`planTickets`, `applyPlan`), built once and shared by the tickets and import parts. */
export function createTicketIssuing(deps: Pick<OrgApiDeps, 'config' | 'ensureUser' | 'now'>) {
  /**
   * Writes a plan without errors in a few set-based statements, inside the caller's transaction; returns what
   * the holders' mails need ({@link enqueueIssuedMails}, in the same transaction).
   */
  async function applyPlan(tx: DbOrTx, org: RequestOrganisation, plan: PlannedRow[], at: Date): Promise<IssuedBatch> {
    return writePrepared(tx, await prepareWrite(tx, org, plan, at, deps.ensureUser));
  }

  /**
   * Enqueues the holders' "ticket issued" mails of a written plan in its transaction `tx` (decision 030): one small
   * mail job per ticket (template, params, recipient, language, organisation), rendered when sent — in each
   * account's language, under the organisation's brand, with its `.ics` (issue 23). `at` is the write's time.
   */
  async function enqueueIssuedMails(tx: DbOrTx, batch: IssuedBatch, at: Date): Promise<void> {
    const slug = batch.organisation?.slug ?? null;
    await enqueueMails(
      tx,
      at,
      batch.items.map((i) => ({
        template: 'ticketIssued' as const,
        to: i.email,
        locale: i.locale,
        org: batch.organisation,
        params: {
          ticket: {
            event: i.event,
            ticketName: i.ticketName,
            calendarId: `ticket-${i.userTicketId}`,
            wallet: walletLinks(deps.config, i.locale, slug, i.userTicketId),
          },
          link: panelLink(deps.config.publicUrl, i.locale, slug, { PANEL_TAB: 'MY_TICKET' }),
          at,
        },
      })),
    );
  }

  return {
    planTickets,
    /** {@link prepareAccounts} with the auth module's account creation. */
    prepareAccounts: (db: DbOrTx, plan: PlannedRow[]) => prepareAccounts(db, plan, deps.ensureUser),
    /** {@link prepareWrite} with the auth module's account creation. */
    prepareWrite: (db: DbOrTx, org: RequestOrganisation, plan: PlannedRow[], at: Date) =>
      prepareWrite(db, org, plan, at, deps.ensureUser),
    stillFits,
    writePrepared,
    applyPlan,
    enqueueIssuedMails,
  };
}
export type TicketIssuing = ReturnType<typeof createTicketIssuing>;
