/** One of my entries as `GET /exchange/entries` answers it: position and open offer, no other fan's data. */
function toEntry({ entry, position, event, type }: EntryListRow): contract.ExchangeEntry {
  return {
    id: entry.id,
    event: {
      name: event.name,
      externalId: event.externalId,
      startsAt: event.startsAt.toISOString(),
      timeZone: event.timeZone,
    },
    ticketType: { name: type.name, externalId: type.externalId },
    quantity: entry.quantity,
    status: contract.exchangeEntryStatus.parse(entry.status),
    position: position === null ? null : Number(position),
    inDraw: entry.seq === null && (entry.status === 'WAITING' || entry.status === 'OFFERED'),
    offer: entry.status === 'OFFERED' && entry.expiresAt ? { expiresAt: entry.expiresAt.toISOString() } : null,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** A row of `repo.entriesOfUser`. */
type EntryListRow = Awaited<ReturnType<typeof repo.entriesOfUser>>[number];

/**
 * The fans' side of the exchange queue (issue 45, decision 042): the public view of an event's queue, joining it
 * (one open entry per account per ticket type, all or nothing), my entries with their true position, leaving and
 * declining an offer, and the expiry of offers. The holders' supply (returns) is exchange-returns.service.ts.
 * Every change takes the event's exchange lock and matches the type again in the same transaction. No answer
 * carries another fan's data: entries are read by their account only.
 */
import { exchange as contract } from '@tp/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { exchangeRepository as repo, type EntryRow, type SettingsRow } from './exchange.repository.js';
import { endEntry, expirePayload, matchType } from './exchange-match.js';
import { closesAtOf, isOpen, underEventLock } from './exchange-rules.js';
import type { ExchangeNotices, OfferEndReason } from './exchange-notices.js';

/** Most entries `GET /v1/exchange/entries` lists (newest first). */
const ENTRIES_LISTED = 100;

/**
 * The fans' side of the exchange queue (issue 45, decision 042): the public event, entries (join, mine, leave,
 * decline) and the expiry of offers.
 */
export function createExchangeService(deps: { database: Database; now: () => Date; notices: ExchangeNotices }) {
  const { db } = deps.database;
  const { notices } = deps;

  /** The event of the public path, with its settings; 404 unless the queue was turned on. */
  async function publicEvent(orgSlug: string, eventExternalId: string) {
    const event = await repo.publicEvent(db, orgSlug, eventExternalId);
    const settings = event ? await repo.settings(db, event.id) : undefined;
    if (!event || !settings?.enabled) throw new AppError('api.exchange.not_found');
    return { event, settings };
  }

  const underLock = <T>(eventId: number, change: (tx: DbOrTx, settings: SettingsRow) => Promise<T>) =>
    underEventLock(db, eventId, change);

  /** My open entry `id` (WAITING or OFFERED), ended for `reason` under the lock; false when not in `from`. */
  async function end(userId: number, id: number, from: EntryRow['status'][], reason: OfferEndReason) {
    const entry = await repo.entryOfUser(db, userId, id);
    if (!entry) throw new AppError('api.exchange.entry_not_found');
    return underLock(entry.eventId, (tx, settings) =>
      endEntry({ tx, notices }, settings, entry, from, reason, deps.now()),
    );
  }

  /** My entries, newest first, with their position and open offer (no other fan's data). */
  async function entries(userId: number): Promise<contract.ExchangeEntry[]> {
    return (await repo.entriesOfUser(db, userId, ENTRIES_LISTED)).map(toEntry);
  }

  return {
    /**
     * GET /exchange/{orgSlug}/{eventExternalId}: the event, whether its queue is open, and the ticket types one may
     * join with their face value.
     * @throws AppError `api.exchange.not_found` (404)
     */
    async publicView(orgSlug: string, eventExternalId: string): Promise<contract.ExchangePublic> {
      const { event, settings } = await publicEvent(orgSlug, eventExternalId);
      const types = await repo.typesOfEvent(db, event.id);
      return {
        event: {
          name: event.name,
          venue: event.venue,
          city: event.city,
          startsAt: event.startsAt.toISOString(),
          timeZone: event.timeZone,
        },
        open: isOpen(settings, event, deps.now()),
        closesAt: closesAtOf(settings, event).toISOString(),
        maxQuantity: settings.maxQuantity,
        types: types.flatMap((t) =>
          t.externalId === null
            ? []
            : [
                {
                  ticketTypeExternalId: t.externalId,
                  name: t.name,
                  priceCents: t.priceCents,
                  currencyCode: t.currencyCode,
                },
              ],
        ),
      };
    },

    /**
     * POST /exchange/{orgSlug}/{eventExternalId}/entries: joins the queue of a ticket type for `quantity` tickets
     * (all or nothing); first come takes its place now; in a draw queue not yet drawn an entry waits for the draw
     * (made before `drawAt`, it is drawn; after, it comes after the drawn ones, first come).
     * Offered at once when supply fits it.
     * @returns the new entry as `entries` lists it
     * @throws AppError `api.exchange.not_found` (404), `api.exchange.closed` (409),
     *   `api.exchange.join.type_not_found` (404), `api.exchange.join.quantity_exceeded` (400),
     *   `api.exchange.join.already_in_queue` (409)
     */
    async join(
      userId: number,
      orgSlug: string,
      eventExternalId: string,
      body: contract.JoinExchangeRequest,
    ): Promise<contract.ExchangeEntry> {
      const { event } = await publicEvent(orgSlug, eventExternalId);
      const type = (await repo.typesOfEvent(db, event.id)).find((t) => t.externalId === body.ticketTypeExternalId);
      if (!type) throw new AppError('api.exchange.join.type_not_found');
      const at = deps.now();
      const id = await underLock(event.id, async (tx, settings) => {
        if (!isOpen(settings, event, at)) throw new AppError('api.exchange.closed');
        if (body.quantity > settings.maxQuantity) throw new AppError('api.exchange.join.quantity_exceeded');
        const inDraw = settings.order === 'draw' && settings.drawnAt === null && settings.drawAt !== null;
        const entryId = await repo.insertEntry(
          tx,
          { eventId: event.id, ticketTypeId: type.id, userId, quantity: body.quantity, createdAt: at },
          !inDraw,
        );
        if (entryId === null) throw new AppError('api.exchange.join.already_in_queue');
        await matchType({ tx, notices }, settings, type.id, at);
        return entryId;
      });
      const mine = (await entries(userId)).find((e) => e.id === id);
      if (!mine) throw new AppError('api.exchange.entry_not_found');
      return mine;
    },

    /** GET /exchange/entries: my entries, newest first, with their position and open offer. */
    entries,

    /**
     * DELETE /exchange/entries/{id}: leaves the queue (an open offer ends, its tickets go to the next entry).
     * @throws AppError `api.exchange.entry_not_found` (404), `api.exchange.leave.not_open` (409)
     */
    async leave(userId: number, id: number): Promise<void> {
      if (!(await end(userId, id, ['WAITING', 'OFFERED'], 'left'))) throw new AppError('api.exchange.leave.not_open');
    },

    /**
     * POST /exchange/entries/{id}/decline: declines my open offer; the entry ends (EXPIRED) and the tickets go to
     * the next entry that fits.
     * @throws AppError `api.exchange.entry_not_found` (404), `api.exchange.decline.not_offered` (409)
     */
    async decline(userId: number, id: number): Promise<void> {
      if (!(await end(userId, id, ['OFFERED'], 'declined'))) throw new AppError('api.exchange.decline.not_offered');
    },

    /**
     * The `exchange.expire` job: ends the offer if it is still OFFERED at or after its `expiresAt` (EXPIRED), and
     * offers its tickets to the next entry that fits. A job for an offer that ended otherwise does nothing.
     */
    async expire(payload: unknown): Promise<void> {
      const { entryId } = expirePayload.parse(payload);
      const entry = await repo.entry(db, entryId);
      if (!entry || entry.status !== 'OFFERED') return;
      await underLock(entry.eventId, async (tx, settings) => {
        const at = deps.now();
        const current = await repo.entry(tx, entryId);
        if (!current || current.status !== 'OFFERED' || !current.expiresAt || current.expiresAt > at) return;
        await endEntry({ tx, notices }, settings, current, ['OFFERED'], 'expired', at);
      });
    },
  };
}
export type ExchangeService = ReturnType<typeof createExchangeService>;
