/**
 * The organiser's side of the exchange queue (issue 45, decision 042): its settings per event
 * (`PUT`/`GET /v1/org/events/{externalId}/exchange`, with the counts per ticket type) and releases of stock into it
 * (`POST .../exchange/releases`). Settings changes and releases are recorded in the audit trail in their
 * transaction.
 */
import { randomBytes } from 'node:crypto';
import type { exchange as contract } from '@tp/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { appendAudit } from '../audit/audit.repository.js';
import type { RequestOrganisation } from '../organiser-scope/org-auth.js';
import { exchangeRepository as repo, type EventRow, type SettingsRow } from './exchange.repository.js';
import { matchType } from './exchange-match.js';
import type { ExchangeNotices } from './exchange-notices.js';
import { scheduleJobs } from './exchange-schedule.js';
import { closesAtOf, isOpen } from './exchange-rules.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The settings as the API answers them. */
function settingsView(settings: SettingsRow, event: EventRow): contract.ExchangeSettings {
  return {
    enabled: settings.enabled,
    offerMinutes: settings.offerMinutes,
    order: settings.order === 'draw' ? 'draw' : 'first_come',
    drawAt: iso(settings.drawAt),
    maxQuantity: settings.maxQuantity,
    closesAt: iso(settings.closesAt),
    effectiveClosesAt: closesAtOf(settings, event).toISOString(),
    closedAt: iso(settings.closedAt),
  };
}

/** The settings (null: never set) and, per ticket type of the event, the queue's counts. */
async function overview(db: DbOrTx, event: EventRow): Promise<contract.ExchangeOverview> {
  const settings = await repo.settings(db, event.id);
  const types = await repo.typesOfEvent(db, event.id);
  const { entries, units } = await repo.counts(db, event.id);
  const entriesOf = (typeId: number, status: string) =>
    entries.find((e) => e.ticketTypeId === typeId && e.status === status)?.n ?? 0;
  return {
    settings: settings ? settingsView(settings, event) : null,
    types: types.map((t) => {
      const u = units.find((x) => x.ticketTypeId === t.id);
      return {
        ticketTypeExternalId: t.externalId,
        name: t.name,
        waiting: entriesOf(t.id, 'WAITING'),
        offered: entriesOf(t.id, 'OFFERED'),
        returned: u?.returned ?? 0,
        released: u?.released ?? 0,
        sold: u?.sold ?? 0,
        expired: entriesOf(t.id, 'EXPIRED'),
      };
    }),
  };
}

export function createExchangeOrgService(deps: { database: Database; now: () => Date; notices: ExchangeNotices }) {
  const { db } = deps.database;

  /** The organisation's event, or 404. @throws AppError `api.org.event_not_found` (404) */
  async function eventOf(org: RequestOrganisation, externalId: string): Promise<EventRow> {
    const event = await repo.orgEvent(db, org.id, externalId);
    if (!event) throw new AppError('api.org.event_not_found');
    return event;
  }

  return {
    /**
     * GET /org/events/{externalId}/exchange: the event's queue settings and counts per ticket type.
     * @throws AppError `api.org.event_not_found` (404)
     */
    async get(org: RequestOrganisation, externalId: string): Promise<contract.ExchangeOverview> {
      return overview(db, await eventOf(org, externalId));
    },

    /**
     * PUT /org/events/{externalId}/exchange: sets the event's queue settings (a new draw seed when `draw` is first
     * chosen), recorded in the audit trail (`exchange.updated`); schedules the queue's close at its closing time and
     * a draw not yet run at `drawAt` (exchange-schedule.ts); answers as GET does. A closed queue whose closing time
     * is put back in the future opens again (its closed entries stay closed); a cancelled event's never does.
     * @throws AppError `api.org.event_not_found` (404), `api.org.event_cancelled` (409: the event is cancelled,
     *   issue 46)
     */
    async put(
      org: RequestOrganisation,
      externalId: string,
      body: contract.ExchangeSettingsRequest,
    ): Promise<contract.ExchangeOverview> {
      const event = await eventOf(org, externalId);
      const at = deps.now();
      await db.transaction(async (tx) => {
        // A cancelled event's queue is closed for good (decision 045): a new closing time must not open it again.
        if (await repo.eventCancelledLocked(tx, event.id)) throw new AppError('api.org.event_cancelled');
        const before = await repo.lockSettings(tx, event.id);
        const after: SettingsRow = {
          eventId: event.id,
          enabled: body.enabled,
          offerMinutes: body.offerMinutes,
          order: body.order,
          drawAt: body.drawAt ? new Date(body.drawAt) : null,
          drawSeed: body.order === 'draw' ? (before?.drawSeed ?? randomBytes(16).toString('hex')) : null,
          drawnAt: before?.drawnAt ?? null,
          maxQuantity: body.maxQuantity,
          closesAt: body.closesAt ? new Date(body.closesAt) : null,
          closedAt: before?.closedAt ?? null,
          updatedAt: at,
        };
        // A closed queue whose closing time the organiser puts back in the future opens again (a cut-off typed in
        // the past closed it at once; its entries stay CLOSED, new ones may join). Audit re-run 25.
        if (after.closedAt !== null && after.enabled && closesAtOf(after, event) > at) after.closedAt = null;
        await repo.putSettings(tx, after);
        // Entries waiting for a draw that will not run now (the queue turned first come) take their places by id.
        if (after.order !== 'draw' && before?.order === 'draw' && before.drawnAt === null) {
          await repo.order(
            tx,
            (await repo.unordered(tx, event.id)).map((e) => e.id),
          );
          for (const type of await repo.typesOfEvent(tx, event.id))
            await matchType({ tx, notices: deps.notices }, after, type.id, at);
        }
        await scheduleJobs(tx, event, after);
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'exchange.updated',
          resourceType: 'event',
          resourceId: externalId,
          detail: { ...body },
        });
      });
      return overview(db, event);
    },

    /**
     * POST /org/events/{externalId}/exchange/releases: `quantity` units of a ticket type at `priceCents` (at most
     * its face value), paid to the organisation; matched at once. Recorded as `exchange.released`.
     * @returns how many units were released and how many entries were offered at once
     * @throws AppError `api.org.event_not_found` (404), `api.org.ticket_type_not_found` (404),
     *   `api.org.event_cancelled` (409), `api.org.exchange.not_open` (409), `api.org.exchange.price_above_face_value` (422),
     *   `api.org.exchange.no_payout_account` (403) until the organisation's payout account is verified
     */
    async release(
      org: RequestOrganisation,
      externalId: string,
      body: contract.ExchangeReleaseRequest,
    ): Promise<contract.ExchangeReleaseResponse> {
      const event = await eventOf(org, externalId);
      // Its queue closed with the cancel (decision 045); said so, rather than "not open".
      if (event.cancelledAt) throw new AppError('api.org.event_cancelled');
      const type = (await repo.typesOfEvent(db, event.id)).find((t) => t.externalId === body.ticketTypeExternalId);
      if (!type) throw new AppError('api.org.ticket_type_not_found');
      if (body.priceCents > type.priceCents) throw new AppError('api.org.exchange.price_above_face_value');
      if (!(await repo.payoutVerified(db, { organisationId: org.id })))
        throw new AppError('api.org.exchange.no_payout_account');
      const at = deps.now();
      return db.transaction(async (tx) => {
        const settings = await repo.lockSettings(tx, event.id);
        if (!isOpen(settings, event, at)) throw new AppError('api.org.exchange.not_open');
        const unit = {
          eventId: event.id,
          ticketTypeId: type.id,
          userTicketId: null,
          sellerUserId: null,
          organisationId: org.id,
          priceCents: body.priceCents,
          currencyCode: type.currencyCode,
          createdAt: at,
        };
        await repo.insertUnits(
          tx,
          Array.from({ length: body.quantity }, () => unit),
        );
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'exchange.released',
          resourceType: 'event',
          resourceId: externalId,
          detail: { ...body },
        });
        const offered = await matchType({ tx, notices: deps.notices }, settings, type.id, at);
        return { released: body.quantity, offered };
      });
    },
  };
}
export type ExchangeOrgService = ReturnType<typeof createExchangeOrgService>;
