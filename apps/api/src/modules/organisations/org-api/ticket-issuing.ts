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
 */
import { randomInt } from 'node:crypto';
import type { MessageKey } from '@tp/contract';
import type { DbOrTx } from '../../../db/client.js';
import { panelLink, type MailOrganisation, walletLinks } from '../../../providers/mail/brand.js';
import { enqueueMails } from '../../../providers/mail/mail-jobs.js';
import { defaultNickname } from '../../auth/auth.users.js';
import {
  orgApiRepository as repo,
  type EventRow,
  type IssuedTicketRow,
  type TicketTypeRow,
} from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { organisationsRepository } from '../organisations.repository.js';
import { endpointsUnchanged, queueDeliveries, outboundDeliveriesOf } from '../../outbound-webhooks/outbound-events.js';
import type { OrgApiDeps } from './deps.js';
import { pickLang, type Lang } from '../../../lib/lang.js';

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
type PlannedRow =
  | { kind: 'create'; input: TicketInput; type: TicketTypeRow }
  | { kind: 'reissue'; input: TicketInput; type: TicketTypeRow; ticket: IssuedTicketRow }
  | { kind: 'unchanged'; input: TicketInput }
  | { kind: 'error'; input: TicketInput; message: MessageKey; field?: string };

/** Accounts per INSERT statement when a plan's holders are new. */
const ACCOUNTS_PER_STATEMENT = 1000;

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
// Over 150 lines: issue, re-issue and revoke share one transaction shape and audit; not yet split (issue 43).
export function createTicketIssuing(deps: Pick<OrgApiDeps, 'config' | 'ensureUser' | 'now'>) {
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

  /**
   * The accounts of these holders, created in bulk (statements of 1,000) when missing, each new one in its row's
   * `holderLanguage` (the first row of an e-mail decides; default `en`).
   */
  async function accountsOf(tx: DbOrTx, holders: Pick<TicketInput, 'holderEmail' | 'holderLanguage'>[]) {
    const languageOf = new Map<string, Lang>();
    for (const h of holders)
      if (!languageOf.has(h.holderEmail)) languageOf.set(h.holderEmail, h.holderLanguage ?? 'en');
    const wanted = [...languageOf.keys()];
    const found = new Map((await repo.usersByEmails(tx, wanted)).map((u) => [u.email, u] as const));
    const missing = wanted.filter((e) => !found.has(e));
    for (let i = 0; i < missing.length; i += ACCOUNTS_PER_STATEMENT) {
      const inserted = await repo.insertUsers(
        tx,
        missing.slice(i, i + ACCOUNTS_PER_STATEMENT).map((email) => {
          const locale = languageOf.get(email)!;
          return { email, nickname: defaultNickname(locale), usernameSuffix: randomInt(1000, 10_000_000), locale };
        }),
      );
      for (const u of inserted) found.set(u.email, u);
    }
    // A username clash (or a concurrent sign-up) skipped a row: the auth module's one-by-one path settles it.
    for (const email of missing.filter((e) => !found.has(e))) {
      const locale = languageOf.get(email)!;
      const user = await deps.ensureUser(email, locale, tx);
      const [row] = await repo.usersByEmails(tx, [email]);
      found.set(email, row ?? { id: user.id, email, locale });
    }
    return found;
  }

  /**
   * Creates the accounts a checked plan will issue to, before its transaction (the CSV import, decision 021):
   * statements of 1,000 accounts outside any transaction, so other requests run between them and the import's
   * transaction stays short. An account is what the holder's first sign-in would make anyway; should the
   * import then fail its second check (a concurrent change), the accounts stay, without tickets.
   */
  async function prepareAccounts(db: DbOrTx, plan: PlannedRow[]): Promise<void> {
    await accountsOf(
      db,
      plan.flatMap((p) => (p.kind === 'create' || p.kind === 'reissue' ? [p.input] : [])),
    );
  }

  /**
   * Makes everything a plan without errors will write (ticket ids reserved, history, webhook deliveries, what
   * the mails need) without writing it: the import runs this before its transaction (decision 021), so the
   * transaction is only a few set-based statements. The holders' accounts must exist ({@link prepareAccounts}).
   */
  async function prepareWrite(db: DbOrTx, org: RequestOrganisation, plan: PlannedRow[], at: Date) {
    const toIssue = plan.filter(
      (p): p is Extract<PlannedRow, { kind: 'create' | 'reissue' }> => p.kind === 'create' || p.kind === 'reissue',
    );
    const accounts = await accountsOf(
      db,
      toIssue.map((p) => p.input),
    );
    const account = (email: string) => accounts.get(email)!;
    const creates = toIssue.filter((p) => p.kind === 'create');
    const reissues = toIssue.filter((p) => p.kind === 'reissue');
    const ids = await repo.reserveTicketIds(db, creates.length);
    const tickets = creates.map((p, i) => ({
      id: ids[i],
      organisationId: org.id,
      externalId: p.input.externalId,
      ticketTypeId: p.type.id,
      holderId: account(p.input.holderEmail).id,
      createdAt: at,
    }));
    const idOf = new Map<string, number>(tickets.map((t) => [t.externalId, t.id] as const));
    for (const p of reissues) idOf.set(p.input.externalId, p.ticket.id);
    const moves = reissues.map((p) => ({ userTicketId: p.ticket.id, holderId: account(p.input.holderEmail).id }));
    const history = [
      ...tickets.map((t) => ({ userTicketId: t.id, fromUserId: null, toUserId: t.holderId, kind: 'ISSUE', at })),
      ...reissues.map((p) => ({
        userTicketId: p.ticket.id,
        fromUserId: p.ticket.holderId,
        toUserId: account(p.input.holderEmail).id,
        kind: 'REISSUE',
        at,
      })),
    ];
    const eventRows = new Map<number, EventRow>();
    for (const id of new Set(toIssue.map((p) => p.type.eventId))) {
      const e = await repo.eventById(db, id);
      if (e) eventRows.set(id, e);
    }
    const organisation = toIssue.length ? await organisationsRepository.organisationById(db, org.id) : undefined;
    const items = toIssue.map((p) => {
      const holder = account(p.input.holderEmail);
      // A ticket type's event exists (foreign key) and was read just above.
      const event = eventRows.get(p.type.eventId)!;
      return {
        userTicketId: idOf.get(p.input.externalId)!,
        input: p.input,
        reissued: p.kind === 'reissue',
        holderId: holder.id,
        fromHolderId: p.kind === 'reissue' ? p.ticket.holderId : null,
        email: holder.email,
        locale: pickLang(holder.locale),
        ticketName: p.type.name,
        event,
        eventExternalId: event.externalId,
      };
    });
    const deliveries = await outboundDeliveriesOf(
      db,
      org.id,
      items.map((i) => ({
        type: 'ticket.issued' as const,
        data: {
          ticketExternalId: i.input.externalId,
          eventExternalId: i.eventExternalId,
          ticketTypeExternalId: i.input.ticketTypeExternalId,
          userTicketId: i.userTicketId,
          holderEmail: i.input.holderEmail,
          reissued: i.reissued,
        },
      })),
      at,
    );
    const batch: IssuedBatch = { organisation: organisation ?? null, items };
    return { orgId: org.id, tickets, moves, history, deliveries, batch };
  }
  type PreparedWrite = Awaited<ReturnType<typeof prepareWrite>>;

  /**
   * Writes a prepared plan: tickets (with one of each benefit of their type), re-issues, history, webhook
   * deliveries, in a few set-based statements. Call it inside the transaction whose locked plan it was made
   * for; returns what the mails need.
   */
  async function writePrepared(tx: DbOrTx, w: PreparedWrite): Promise<IssuedBatch> {
    await repo.insertTickets(tx, w.tickets);
    await repo.grantTypeBenefits(tx, w.tickets);
    await repo.setHolders(tx, w.moves);
    await repo.insertHistory(tx, w.history);
    await queueDeliveries(tx, w.deliveries);
    return w.batch;
  }

  /**
   * Whether a write prepared from `before` (checked without locks) still fits `locked` (the same rows checked
   * again under row locks) and the organisation's webhook endpoints: then it may be written as made.
   */
  async function stillFits(tx: DbOrTx, before: PlannedRow[], locked: PlannedRow[], w: PreparedWrite) {
    const same = (a: PlannedRow, b: PlannedRow) =>
      a.kind === b.kind &&
      (a.kind !== 'reissue' ||
        (b.kind === 'reissue' && a.ticket.id === b.ticket.id && a.ticket.holderId === b.ticket.holderId));
    return (
      before.length === locked.length &&
      before.every((p, i) => same(p, locked[i])) &&
      (await endpointsUnchanged(tx, w.orgId, w.deliveries))
    );
  }

  /**
   * Writes a plan without errors in a few set-based statements, inside the caller's transaction; returns what
   * the holders' mails need ({@link enqueueIssuedMails}, in the same transaction).
   */
  async function applyPlan(tx: DbOrTx, org: RequestOrganisation, plan: PlannedRow[], at: Date): Promise<IssuedBatch> {
    return writePrepared(tx, await prepareWrite(tx, org, plan, at));
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

  return { planTickets, prepareAccounts, prepareWrite, stillFits, writePrepared, applyPlan, enqueueIssuedMails };
}
export type TicketIssuing = ReturnType<typeof createTicketIssuing>;
