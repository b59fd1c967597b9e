/**
 * What the exchange queue tells people (issue 45, decision 042 "Offers end"): the fan's e-mails (an offer, an offer
 * that expired, the queue closed) and the organiser's webhooks (`exchange.offered`, `exchange.expired`,
 * `exchange.sold`, `exchange.closed`); once paid, the buyer's and the sellers' e-mails. Each is queued in the transaction of the change that causes it, under the event's exchange
 * lock, so an offer's e-mail is queued when the return or release that made it commits (issue 45: within 1 s), and
 * a change rolled back tells no one. Webhooks carry the entry's id and quantity, never the fan's e-mail or name.
 */
import { pickLang } from '../../lib/lang.js';
import type { DbOrTx } from '../../db/client.js';
import { panelLink } from '../../providers/mail/brand.js';
import { enqueueMails, type MailJobInput } from '../../providers/mail/mail-jobs.js';
import { enqueueOutboundEvent } from '../outbound-webhooks/outbound-events.js';
import { exchangeRepository as repo } from './exchange.repository.js';

/** Why an offer ended unpaid: `exchange.expired`'s `reason`. */
export type OfferEndReason = 'expired' | 'declined' | 'left';

type NoticeRow = Awaited<ReturnType<typeof repo.noticeRows>>[number];

/** The organiser's ids of an entry's event and type, with the entry's id and quantity (no fan's data). */
const refs = ({ entry, event, type }: NoticeRow) => ({
  eventExternalId: event.externalId,
  ticketTypeExternalId: type.externalId,
  entryId: entry.id,
  quantity: entry.quantity,
});

/** A mail's addressee: the fan, in their language, under the organisation's brand. */
const toFan = (row: NoticeRow) => ({ to: row.fan.email, locale: pickLang(row.fan.locale), org: row.organisation });

/** The event's facts as a ticket mail shows them (the calendar id is the entry's). */
const ticketOf = (row: NoticeRow) => ({
  event: row.event,
  ticketName: row.type.name,
  calendarId: `exchange-${row.entry.id}`,
});

/**
 * The notices of one app: `publicUrl` (config) makes the e-mails' link to the panel's My tickets, under the
 * organisation's `?org=`, where the fan sees the offer and buys.
 */
export function exchangeNotices(publicUrl: string) {
  const myTickets = (lang: string, slug: string) =>
    panelLink(publicUrl, pickLang(lang), slug, { PANEL_TAB: 'MY_TICKET' });
  const ended = (row: NoticeRow, reason: 'expired' | 'closed'): MailJobInput => ({
    template: 'exchangeEnded',
    ...toFan(row),
    params: { eventName: row.event.name, reason, link: myTickets(row.fan.locale, row.organisation.slug) },
  });

  return {
    /**
     * An entry was just offered its reserved units until `expiresAt` (UTC): the fan's offer e-mail (their language,
     * the event's date and venue, the total at face value) and `exchange.offered`.
     */
    async offered(tx: DbOrTx, entryId: number, expiresAt: Date, at: Date): Promise<void> {
      const [row] = await repo.noticeRows(tx, [entryId]);
      if (!row) return;
      const total = await repo.reservedTotal(tx, entryId);
      const lang = pickLang(row.fan.locale);
      await enqueueMails(tx, at, [
        {
          template: 'exchangeOffered',
          ...toFan(row),
          params: {
            ticket: ticketOf(row),
            quantity: row.entry.quantity,
            amountCents: total.cents,
            currencyCode: total.currencyCode,
            expiresAt,
            link: myTickets(lang, row.organisation.slug),
          },
        },
      ]);
      await enqueueOutboundEvent(
        tx,
        row.event.organisationId,
        'exchange.offered',
        {
          ...refs(row),
          expiresAt: expiresAt.toISOString(),
          amountCents: total.cents,
          currencyCode: total.currencyCode,
        },
        at,
      );
    },

    /**
     * An offer ended unpaid (`reason`): `exchange.expired`, and when it expired (not the fan's own decline or
     * leave) the fan's e-mail that the tickets went on.
     */
    async offerEnded(tx: DbOrTx, entryId: number, reason: OfferEndReason, at: Date): Promise<void> {
      const [row] = await repo.noticeRows(tx, [entryId]);
      if (!row) return;
      if (reason === 'expired') await enqueueMails(tx, at, [ended(row, 'expired')]);
      await enqueueOutboundEvent(tx, row.event.organisationId, 'exchange.expired', { ...refs(row), reason }, at);
    },

    /**
     * An offer was paid (`sale`): the fan's e-mail that the tickets are theirs (with the `.ics`), each seller's e-mail
     * that what they returned sold and what they are owed (minor units), and `exchange.sold`.
     */
    async sold(
      tx: DbOrTx,
      entryId: number,
      sale: {
        amountCents: number;
        currencyCode: string;
        userTicketIds: number[];
        released: number;
        sellers: { email: string; locale: string; quantity: number; amountCents: number }[];
      },
      at: Date,
    ): Promise<void> {
      const [row] = await repo.noticeRows(tx, [entryId]);
      if (!row) return;
      const lang = pickLang(row.fan.locale);
      const money = { amountCents: sale.amountCents, currencyCode: sale.currencyCode };
      await enqueueMails(tx, at, [
        {
          template: 'exchangePurchased',
          ...toFan(row),
          params: {
            ticket: ticketOf(row),
            quantity: row.entry.quantity,
            ...money,
            link: myTickets(lang, row.organisation.slug),
            at,
          },
        },
        ...sale.sellers.map((seller): MailJobInput => ({
          template: 'listingSold',
          to: seller.email,
          locale: pickLang(seller.locale),
          org: row.organisation,
          params: {
            eventName: row.event.name,
            ticketName: row.type.name,
            quantity: seller.quantity,
            amountCents: seller.amountCents,
            currencyCode: sale.currencyCode,
            exchange: true,
            link: panelLink(publicUrl, pickLang(seller.locale), row.organisation.slug, {
              PANEL_TAB: 'SETTINGS',
              SETTINGS_TAB: 'ACCOUNT_VERIFICATION',
            }),
          },
        })),
      ]);
      await enqueueOutboundEvent(
        tx,
        row.event.organisationId,
        'exchange.sold',
        { ...refs(row), ...money, userTicketIds: sale.userTicketIds, released: sale.released },
        at,
      );
    },

    /**
     * The queue of `eventExternalId` closed: each fan of `entryIds` (now CLOSED) is told, and the organisation gets
     * one `exchange.closed` with the counts.
     */
    async closed(
      tx: DbOrTx,
      event: { organisationId: number; externalId: string | null },
      entryIds: number[],
      ticketsWithdrawn: number,
      at: Date,
    ): Promise<void> {
      const rows = await repo.noticeRows(tx, entryIds);
      await enqueueMails(
        tx,
        at,
        rows.map((row) => ended(row, 'closed')),
      );
      await enqueueOutboundEvent(
        tx,
        event.organisationId,
        'exchange.closed',
        { eventExternalId: event.externalId, entriesClosed: entryIds.length, ticketsWithdrawn },
        at,
      );
    },
  };
}
export type ExchangeNotices = ReturnType<typeof exchangeNotices>;
