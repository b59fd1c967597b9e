/**
 * The organisation API's rules (issue 12, `/v1/org/*`). Everything is scoped to the calling organisation:
 * another organisation's ids are not found (404). Upserts are idempotent by the organiser's own ids and say what
 * they did: `created`, `updated` or `unchanged`.
 *
 * Issuing tickets (PUT /org/tickets/{externalId} and the CSV import share `planTickets` + `applyPlan`):
 * - a new externalId creates the ticket for the holder's account (created when needed, language `en`), with one
 *   of each benefit of its type, records an ISSUE in the ticket history and queues `ticket.issued`;
 * - the same externalId with the e-mail it was last issued to changes nothing, even after the holder gifted or
 *   sold it (the organiser's data describes the issue, not the current holder);
 * - another e-mail re-issues it (REISSUE: the new holder gets it, `ticket.issued` again) only while it is still
 *   with the account it was issued to, unused, not listed for resale and not revoked; otherwise 409
 *   (`api.org.ticket_moved`, `api.org.ticket_used`, `api.org.ticket_in_resale`, `api.org.ticket_revoked`);
 * - another ticket type is refused (`api.org.ticket_type_locked`): revoke the ticket and issue a new one.
 * Holders are e-mailed in their account's language after the transaction commits, through the mail queue
 * (never holding up the request).
 */
import { randomInt } from 'node:crypto';
import type { MessageKey, organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import type { events, ticketTypes } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { MailQueue } from '../../providers/mail/mail-queue.js';
import { ticketIssuedMail } from '../../providers/mail/templates.js';
import { defaultNickname } from '../auth/auth.service.js';
import { orgApiRepository as repo, type IssuedTicketRow, type TicketTypeRow } from './org-api.repository.js';
import { organisationsRepository } from './organisations.repository.js';
import { enqueueTicketEvents, enqueueWebhookEvent } from './webhook-events.js';
import type { RequestOrganisation } from './org-auth.js';

export type UpsertStatus = z.infer<typeof contract.upsertStatus>;
type EventInput = z.infer<typeof contract.eventUpsertRequest>;
type TicketTypeInput = z.infer<typeof contract.ticketTypeUpsertRequest>;

/** One ticket to issue: the organiser's ids and the holder's e-mail (already validated). */
export interface TicketInput {
  externalId: string;
  ticketTypeExternalId: string;
  holderEmail: string;
}

/** What issuing one row will do, or why it cannot. */
export type PlannedRow =
  | { kind: 'create'; input: TicketInput; type: TicketTypeRow }
  | { kind: 'reissue'; input: TicketInput; type: TicketTypeRow; ticket: IssuedTicketRow }
  | { kind: 'unchanged'; input: TicketInput }
  | { kind: 'error'; input: TicketInput; message: MessageKey; field?: string };

/** Creates (or finds) an account by e-mail inside the transaction; provided by the auth module. */
export type EnsureUser = (email: string, locale: string, tx: DbOrTx) => Promise<{ id: number }>;

const same = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null);
/** The fields of `next` that differ from `current`. */
function changed<T extends Record<string, unknown>>(current: T, next: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => !same(current[k], v))) as Partial<T>;
}

export function createOrgApiService(deps: {
  database: Database;
  config: Config;
  mailQueue: MailQueue;
  ensureUser: EnsureUser;
  now: () => Date;
}) {
  const db = deps.database.db;

  async function eventOf(tx: DbOrTx, org: RequestOrganisation, externalId: string) {
    const event = await repo.eventByExternalId(tx, org.id, externalId);
    if (!event) throw new AppError('api.org.event_not_found');
    return event;
  }

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
    for (const p of toIssue) {
      if (p.kind !== 'create' && p.kind !== 'reissue') continue;
      const userTicketId = idOf.get(p.input.externalId)!;
      const holder = account(p.input.holderEmail);
      const event = eventNames.get(p.type.eventId);
      await enqueueWebhookEvent(
        tx,
        org.id,
        'ticket.issued',
        {
          ticketExternalId: p.input.externalId,
          eventExternalId: event?.externalId ?? null,
          ticketTypeExternalId: p.input.ticketTypeExternalId,
          userTicketId,
          holderEmail: p.input.holderEmail,
          reissued: p.kind === 'reissue',
        },
        at,
      );
      const locale = holder.locale === 'es' ? 'es' : 'en';
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
    return mails;
  }

  const count = (plan: PlannedRow[]) => ({
    created: plan.filter((p) => p.kind === 'create').length,
    updated: plan.filter((p) => p.kind === 'reissue').length,
    unchanged: plan.filter((p) => p.kind === 'unchanged').length,
  });

  return {
    /**
     * PUT /org/events/{externalId}.
     * @returns what it did; `created` when the externalId was new to the organisation.
     */
    async upsertEvent(org: RequestOrganisation, externalId: string, input: EventInput): Promise<UpsertStatus> {
      const values = {
        name: input.name,
        venue: input.venue,
        city: input.city,
        country: input.country,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        timeZone: input.timeZone,
        address1: input.address ?? '',
        latitude: input.latitude ?? null,
        longitude: input.longitude ?? null,
        description: input.description ?? null,
        image: input.imageUrl ?? null,
        logo: input.logoUrl ?? null,
      } satisfies Partial<typeof events.$inferInsert>;
      return db.transaction(async (tx) => {
        for (let attempt = 0; attempt < 2; attempt++) {
          const current = await repo.eventByExternalId(tx, org.id, externalId, true);
          if (!current) {
            if (await repo.insertEvent(tx, { ...values, organisationId: org.id, externalId })) return 'created';
            continue; // created concurrently: update it instead
          }
          const diff = changed(current, values);
          if (Object.keys(diff).length === 0) return 'unchanged';
          await repo.updateEvent(tx, current.id, diff);
          return 'updated';
        }
        throw new AppError('api.service_unavailable');
      });
    },

    /**
     * PUT /org/ticket-types/{externalId}. Benefits are matched by their externalId within the type: new ones are
     * added (and given to the type's live tickets), known ones updated; benefits left out are kept (holders may
     * have used them). `resaleCapCents` defaults to `priceCents`.
     * @throws AppError `api.org.event_not_found` (404), `api.org.ticket_type_event_locked` (409: the type
     *   exists under another event).
     */
    async upsertTicketType(
      org: RequestOrganisation,
      externalId: string,
      input: TicketTypeInput,
    ): Promise<UpsertStatus> {
      return db.transaction(async (tx) => {
        const event = await eventOf(tx, org, input.eventExternalId);
        const values = {
          name: input.name,
          description: input.description ?? null,
          priceCents: input.priceCents,
          currencyCode: input.currency,
          maxResalePriceCents: input.resaleCapCents ?? input.priceCents,
          isGiftable: input.isGiftable,
          isResellable: input.isResellable,
          isSwappable: input.isSwappable,
        } satisfies Partial<typeof ticketTypes.$inferInsert>;
        let status: UpsertStatus = 'unchanged';
        let type: TicketTypeRow | undefined = await repo.ticketTypeByExternalId(tx, org.id, externalId, true);
        if (!type) {
          type = await repo.insertTicketType(tx, { ...values, organisationId: org.id, externalId, eventId: event.id });
          if (!type) type = await repo.ticketTypeByExternalId(tx, org.id, externalId, true);
          else status = 'created';
        }
        if (!type) throw new AppError('api.service_unavailable');
        if (type.eventId !== event.id) throw new AppError('api.org.ticket_type_event_locked');
        if (status !== 'created') {
          const diff = changed(type, values);
          if (Object.keys(diff).length) {
            await repo.updateTicketType(tx, type.id, diff);
            status = 'updated';
          }
        }
        const known = new Map((await repo.benefitsOfType(tx, type.id)).map((b) => [b.externalId, b] as const));
        for (const b of input.benefits ?? []) {
          const benefitValues = {
            name: b.name,
            type: b.type,
            shortDescription: b.shortDescription ?? null,
            fullDescription: b.fullDescription ?? null,
            icon: b.iconUrl ?? null,
            validUntil: b.validUntil ? new Date(b.validUntil) : null,
            isUnlockable: b.isUnlockable ?? false,
            redeemCode: b.redeemCode ?? null,
          };
          const current = known.get(b.externalId);
          if (!current) {
            const row = await repo.insertBenefit(tx, {
              ...benefitValues,
              ticketTypeId: type.id,
              externalId: b.externalId,
            });
            await repo.grantBenefitToType(tx, row.id, type.id);
            if (status === 'unchanged') status = 'updated';
            continue;
          }
          const diff = changed(current, benefitValues);
          if (Object.keys(diff).length) {
            await repo.updateBenefit(tx, current.id, diff);
            if (status === 'unchanged') status = 'updated';
          }
        }
        return status;
      });
    },

    /**
     * PUT /org/tickets/{externalId}: issues (or re-issues) the ticket; see the module's rules.
     * @throws AppError `api.org.ticket_type_not_found` (404), `api.org.ticket_revoked`, `api.org.ticket_type_locked`,
     *   `api.org.ticket_in_resale`, `api.org.ticket_used`, `api.org.ticket_moved` (409).
     */
    async upsertTicket(org: RequestOrganisation, input: TicketInput): Promise<UpsertStatus> {
      const at = deps.now();
      const { status, mails } = await db.transaction(async (tx) => {
        const [row] = await planTickets(tx, org, [input], true);
        if (row.kind === 'error') throw new AppError(row.message);
        const mails = await applyPlan(tx, org, [row], at);
        const status: UpsertStatus =
          row.kind === 'create' ? 'created' : row.kind === 'reissue' ? 'updated' : 'unchanged';
        return { status, mails };
      });
      deps.mailQueue.push(mails);
      return status;
    },

    /**
     * POST /org/tickets/import (rows already parsed): all or nothing, in one transaction. Any bad row: nothing is
     * written and the errors come back with their spreadsheet row numbers. `dryRun`: the same checks, no writes.
     * @param rows `{ row, input }` valid by shape, and `{ row, message, field }` already refused by the parser
     */
    async importTickets(
      org: RequestOrganisation,
      rows: { row: number; input: TicketInput }[],
      parseErrors: { row: number; message: MessageKey; field?: string }[],
      dryRun: boolean,
    ): Promise<
      | { errors: { row: number; message: MessageKey; field?: string }[] }
      | { result: { dryRun: boolean; created: number; updated: number; unchanged: number } }
    > {
      const at = deps.now();
      const outcome = await db.transaction(async (tx) => {
        const plan = await planTickets(
          tx,
          org,
          rows.map((r) => r.input),
          !dryRun,
        );
        const errors = [
          ...parseErrors,
          ...plan.flatMap((p, i) =>
            p.kind === 'error'
              ? [{ row: rows[i].row, message: p.message, ...(p.field ? { field: p.field } : {}) }]
              : [],
          ),
        ].sort((a, b) => a.row - b.row);
        if (errors.length) return { errors } as const;
        const mails = dryRun ? [] : await applyPlan(tx, org, plan, at);
        return { counts: count(plan), mails } as const;
      });
      if ('errors' in outcome)
        return { errors: outcome.errors as { row: number; message: MessageKey; field?: string }[] };
      deps.mailQueue.push(outcome.mails);
      return { result: { dryRun, ...outcome.counts } };
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
      });
    },

    /**
     * GET /org/events/{externalId}/attendance over the event's live tickets: issued, checked in (access used),
     * listed for resale now, resold (sold through a resale listing at least once).
     * @throws AppError `api.org.event_not_found` (404).
     */
    async attendance(org: RequestOrganisation, externalId: string) {
      const event = await eventOf(db, org, externalId);
      return repo.attendance(db, event.id);
    },
  };
}
export type OrgApiService = ReturnType<typeof createOrgApiService>;
