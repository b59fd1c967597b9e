/**
 * Issuing tickets, shared by PUT /org/tickets/{externalId} and the CSV import (issue 12): `planTickets` decides
 * row by row what issuing would do, `applyPlan` writes a plan without errors.
 * - a new externalId creates the ticket for the holder's account (created when needed, language `en`), with one
 *   of each benefit of its type, records an ISSUE in the ticket history and queues `ticket.issued`;
 * - the same externalId with the e-mail it was last issued to changes nothing, even after the holder gifted or
 *   sold it (the organiser's data describes the issue, not the current holder);
 * - another e-mail re-issues it (REISSUE: the new holder gets it, `ticket.issued` again) only while it is still
 *   with the account it was issued to, unused, not listed for resale and not revoked; otherwise 409
 *   (`api.org.ticket_moved`, `api.org.ticket_used`, `api.org.ticket_in_resale`, `api.org.ticket_revoked`);
 * - another ticket type is refused (`api.org.ticket_type_locked`): revoke the ticket and issue a new one.
 * Holders are e-mailed in their account's language after the transaction commits, through the mail queue
 * (never holding up the request): `applyPlan` returns the mails to push.
 */
import { randomInt } from 'node:crypto';
import type { MessageKey } from '@tp/contract';
import type { DbOrTx } from '../../../db/client.js';
import { ticketIssuedMail } from '../../../providers/mail/templates.js';
import { defaultNickname } from '../../auth/auth.service.js';
import { orgApiRepository as repo, type IssuedTicketRow, type TicketTypeRow } from '../org-api.repository.js';
import type { RequestOrganisation } from '../org-auth.js';
import { organisationsRepository } from '../organisations.repository.js';
import { enqueueWebhookEvents } from '../webhook-events.js';
import type { OrgApiDeps } from './deps.js';
import { pickLang } from '../../../lib/lang.js';

/** One ticket to issue: the organiser's ids and the holder's e-mail (already validated). */
export interface TicketInput {
  externalId: string;
  ticketTypeExternalId: string;
  holderEmail: string;
}

/** What issuing one row will do, or why it cannot. */
type PlannedRow =
  | { kind: 'create'; input: TicketInput; type: TicketTypeRow }
  | { kind: 'reissue'; input: TicketInput; type: TicketTypeRow; ticket: IssuedTicketRow }
  | { kind: 'unchanged'; input: TicketInput }
  | { kind: 'error'; input: TicketInput; message: MessageKey; field?: string };

/** How many rows of a plan create, re-issue (`updated`) and change nothing. */
export const countPlan = (plan: PlannedRow[]) => ({
  created: plan.filter((p) => p.kind === 'create').length,
  updated: plan.filter((p) => p.kind === 'reissue').length,
  unchanged: plan.filter((p) => p.kind === 'unchanged').length,
});

/** The issuing rules (`planTickets`, `applyPlan`), built once and shared by the tickets and import parts. */
export function createTicketIssuing(deps: Pick<OrgApiDeps, 'config' | 'ensureUser'>) {
  /**
   * Decides, row by row, what issuing would do (no writes). Rows are locked when `lock` (not for a dry run).
   * Errors name the field they are about.
   */
  async function planTickets(
    tx: DbOrTx,
    org: RequestOrganisation,
    rows: TicketInput[],
    lock: boolean,
  ): Promise<PlannedRow[]> {
    const types = new Map(
      (await repo.ticketTypesByExternalIds(tx, org.id, [...new Set(rows.map((r) => r.ticketTypeExternalId))])).map(
        (t) => [t.externalId, t] as const,
      ),
    );
    const existing = new Map(
      (
        await repo.ticketsByExternalIds(
          tx,
          org.id,
          rows.map((r) => r.externalId),
          lock,
        )
      ).map((t) => [t.externalId, t] as const),
    );
    const seen = new Set<string>();
    return rows.map((input): PlannedRow => {
      if (seen.has(input.externalId))
        return { kind: 'error', input, message: 'api.org.import.duplicate_external_id', field: 'externalId' };
      seen.add(input.externalId);
      const type = types.get(input.ticketTypeExternalId);
      if (!type)
        return { kind: 'error', input, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId' };
      const ticket = existing.get(input.externalId);
      if (!ticket) return { kind: 'create', input, type };
      if (ticket.revokedAt) return { kind: 'error', input, message: 'api.org.ticket_revoked' };
      if (ticket.ticketTypeId !== type.id)
        return { kind: 'error', input, message: 'api.org.ticket_type_locked', field: 'ticketTypeExternalId' };
      if (ticket.issuedToEmail === input.holderEmail) return { kind: 'unchanged', input };
      if (ticket.listed || ticket.holderId === null)
        return { kind: 'error', input, message: 'api.org.ticket_in_resale', field: 'holderEmail' };
      if (ticket.eventAccessUsedAt)
        return { kind: 'error', input, message: 'api.org.ticket_used', field: 'holderEmail' };
      if (ticket.holderId !== ticket.issuedToId)
        return { kind: 'error', input, message: 'api.org.ticket_moved', field: 'holderEmail' };
      return { kind: 'reissue', input, type, ticket };
    });
  }

  /** The accounts of these e-mails, created in bulk when missing. */
  async function accountsOf(tx: DbOrTx, emails: string[]) {
    const wanted = [...new Set(emails)];
    const found = new Map((await repo.usersByEmails(tx, wanted)).map((u) => [u.email, u] as const));
    const missing = wanted.filter((e) => !found.has(e));
    const inserted = await repo.insertUsers(
      tx,
      missing.map((email) => ({
        email,
        nickname: defaultNickname('en'),
        usernameSuffix: randomInt(1000, 10_000_000),
        locale: 'en',
      })),
    );
    for (const u of inserted) found.set(u.email, u);
    // A username clash (or a concurrent sign-up) skipped a row: the auth module's one-by-one path settles it.
    for (const email of missing.filter((e) => !found.has(e))) {
      const user = await deps.ensureUser(email, 'en', tx);
      const [row] = await repo.usersByEmails(tx, [email]);
      found.set(email, row ?? { id: user.id, email, locale: 'en' });
    }
    return found;
  }

  /** Writes a plan without errors; returns the mails to send once committed. */
  async function applyPlan(tx: DbOrTx, org: RequestOrganisation, plan: PlannedRow[], at: Date) {
    const toIssue = plan.filter((p) => p.kind === 'create' || p.kind === 'reissue');
    if (toIssue.length === 0) return [];
    const accounts = await accountsOf(
      tx,
      toIssue.map((p) => p.input.holderEmail),
    );
    const account = (email: string) => accounts.get(email)!;
    const creates = plan.filter((p): p is Extract<PlannedRow, { kind: 'create' }> => p.kind === 'create');
    const created = await repo.insertTickets(
      tx,
      creates.map((p) => ({
        organisationId: org.id,
        externalId: p.input.externalId,
        ticketTypeId: p.type.id,
        holderId: account(p.input.holderEmail).id,
        createdAt: at,
      })),
    );
    const idOf = new Map(created.map((c) => [c.externalId!, c.id] as const));
    const benefitsByType = new Map<number, number[]>();
    for (const b of await repo.benefitsOfTypes(tx, [...new Set(creates.map((p) => p.type.id))]))
      benefitsByType.set(b.ticketTypeId, [...(benefitsByType.get(b.ticketTypeId) ?? []), b.id]);
    await repo.insertTicketBenefits(
      tx,
      created.flatMap((c) =>
        (benefitsByType.get(c.ticketTypeId) ?? []).map((benefitId) => ({
          userTicketId: c.id,
          benefitId,
          purchasedAmount: 1,
        })),
      ),
    );
    const reissues = plan.filter((p): p is Extract<PlannedRow, { kind: 'reissue' }> => p.kind === 'reissue');
    for (const p of reissues) {
      idOf.set(p.input.externalId, p.ticket.id);
      await repo.setHolder(tx, p.ticket.id, account(p.input.holderEmail).id);
    }
    await repo.insertHistory(tx, [
      ...creates.map((p) => ({
        userTicketId: idOf.get(p.input.externalId)!,
        fromUserId: null,
        toUserId: account(p.input.holderEmail).id,
        kind: 'ISSUE',
        at,
      })),
      ...reissues.map((p) => ({
        userTicketId: p.ticket.id,
        fromUserId: p.ticket.holderId,
        toUserId: account(p.input.holderEmail).id,
        kind: 'REISSUE',
        at,
      })),
    ]);
    const eventIds = [
      ...new Set(toIssue.map((p) => (p.kind === 'create' || p.kind === 'reissue' ? p.type.eventId : 0))),
    ];
    const eventNames = new Map<number, { name: string; externalId: string | null }>();
    for (const id of eventIds) {
      const e = await repo.eventById(tx, id);
      if (e) eventNames.set(id, { name: e.name, externalId: e.externalId });
    }
    const organisation = await organisationsRepository.organisationById(tx, org.id);
    const mails = [];
    const issued = [];
    for (const p of toIssue) {
      if (p.kind !== 'create' && p.kind !== 'reissue') continue;
      const userTicketId = idOf.get(p.input.externalId)!;
      const holder = account(p.input.holderEmail);
      const event = eventNames.get(p.type.eventId);
      issued.push({
        type: 'ticket.issued' as const,
        data: {
          ticketExternalId: p.input.externalId,
          eventExternalId: event?.externalId ?? null,
          ticketTypeExternalId: p.input.ticketTypeExternalId,
          userTicketId,
          holderEmail: p.input.holderEmail,
          reissued: p.kind === 'reissue',
        },
      });
      const locale = pickLang(holder.locale);
      mails.push({
        message: {
          to: holder.email,
          ...ticketIssuedMail(locale, {
            organisationName: organisation?.name ?? deps.config.productName,
            ticketName: p.type.name,
            eventName: event?.name ?? '',
            link: `${deps.config.publicUrl}/${locale}/?PANEL_TAB=MY_TICKET`,
          }),
        },
        context: { organisationId: org.id, userTicketId },
      });
    }
    // One read of the endpoints and a few inserts, not a query per ticket (issue 19 break 3).
    await enqueueWebhookEvents(tx, org.id, issued, at);
    return mails;
  }

  return { planTickets, applyPlan };
}
export type TicketIssuing = ReturnType<typeof createTicketIssuing>;
