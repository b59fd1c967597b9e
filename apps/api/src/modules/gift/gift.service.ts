/**
 * Gifting (spec sections 2 Gift, 4 Gift flow, 6, 8). A ticket can be gifted when the "may this ticket move"
 * rule allows it (db/predicates.ts: held by the caller, type giftable, event access unused, event not over,
 * not listed for resale). The move runs in one
 * transaction that locks the ticket row, re-checks every rule, changes the holder and records
 * the move in the ticket history; the receiver's e-mail and the giver's confirmation (issue 40) are mail jobs of
 * that transaction (decision 030).
 */
import type { Database, DbOrTx } from '../../db/client.js';
import type { Config } from '../../config.js';
import { panelLink, walletLinks } from '../../providers/mail/brand.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { AppError } from '../../lib/app-error.js';
import type { Lang } from '../../lib/lang.js';
import { isHeldBy, ticketMayMove, transfersClosed, type Holder } from '../../db/predicates.js';
import { auth, holderDisplayName, parseUsername, usernameOf, USERNAME_SEARCH_MIN_LENGTH } from '@tp/contract';
import { giftRepository as repo } from './gift.repository.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { pickLang } from '../../lib/lang.js';

/** Creates (or finds) the account of an e-mail; provided by the auth module. */
export type EnsureUser = (email: string, locale: string, tx: DbOrTx) => Promise<{ id: number }>;

/** Parses the receiver field: an e-mail, or a `nickname#1234` username. */
export function parseReceiver(value: string): { email: string } | { nickname: string; suffix: number } | null {
  const v = value.trim();
  if (v.includes('@')) {
    const parsed = auth.email.safeParse(v);
    return parsed.success ? { email: parsed.data } : null;
  }
  return parseUsername(v);
}

/** The settings the gift service reads: the public URL of the panel (links in the gift mail). */
export type GiftConfig = Pick<Config, 'publicUrl' | 'productName' | 'wallet'>;

export function createGiftService(deps: {
  database: Database;
  config: GiftConfig;
  ensureUser: EnsureUser;
  now: () => Date;
}) {
  const db = deps.database.db;
  return {
    /**
     * POST /mobile/gift/verify -> `{ extras: { canBeGifted } }`.
     * @throws AppError `gift_tickets.not_authorized_to_verify` (403) when the caller does not hold the ticket
     *   (or it belongs to another organisation than the `X-Organisation` header names).
     */
    async verify(holder: Holder, userTicketId: number) {
      const row = await repo.ticket(db, userTicketId);
      if (!row || !isHeldBy(row, holder)) throw new AppError('gift_tickets.not_authorized_to_verify');
      return { extras: { canBeGifted: ticketMayMove('gift', row, holder, deps.now()) } };
    },

    /**
     * POST /mobile/giftTicket: moves the ticket to the receiver (e-mail or username).
     * An unknown e-mail gets an account in `lang`, the language of the giver's panel (Accept-Language, issue 29),
     * so its owner sees the ticket at first sign-in and its mails are in that language. The giver is e-mailed a
     * confirmation in their own language (issue 40) with an .ics that cancels their calendar entry of the ticket
     * (issue 40 point 11), the receiver the gift; both in the move's transaction.
     * @throws AppError `gift_tickets.not_allowed` (403, not the holder, or the ticket belongs to another
     *   organisation than the `X-Organisation` header names), `gift_tickets.cannot_be_gifted` (409),
     *   `gift_tickets.receiver_not_found` (404), `gift_tickets.cannot_gift_to_self` (400).
     */
    async gift(
      holder: Holder,
      userTicketId: number,
      receiverField: string,
      lang: Lang = 'en',
    ): Promise<{ userTicketId: number }> {
      const { userId } = holder;
      const receiver = parseReceiver(receiverField);
      if (!receiver) throw new AppError('gift_tickets.receiver_not_found');
      const at = deps.now();
      await db.transaction(async (tx) => {
        const row = await repo.ticket(tx, userTicketId, true);
        if (!row || !isHeldBy(row, holder)) throw new AppError('gift_tickets.not_allowed');
        if (transfersClosed(row.event, at)) throw new AppError('api.ticket.transfers_closed');
        if (!ticketMayMove('gift', row, holder, at)) throw new AppError('gift_tickets.cannot_be_gifted');
        const giver = await repo.userById(tx, userId);
        const to =
          'email' in receiver
            ? ((await repo.userByEmail(tx, receiver.email)) ?? (await deps.ensureUser(receiver.email, lang, tx)))
            : await repo.userByUsername(tx, receiver.nickname, receiver.suffix);
        if (!to) throw new AppError('gift_tickets.receiver_not_found');
        if (to.id === userId) throw new AppError('gift_tickets.cannot_gift_to_self');
        await repo.moveTicket(tx, userTicketId, userId, to.id, 'GIFT', at);
        const receiverUser = await repo.userById(tx, to.id);
        const newHolderEmail = 'email' in receiver ? receiver.email : receiverUser.email;
        await enqueueTicketEvents(tx, 'ticket.transferred', [userTicketId], at, { newHolderEmail });
        await enqueueTicketMovedJobs(tx, [userTicketId]);
        const locale = pickLang(receiverUser.locale);
        const giverLocale = pickLang(giver.locale);
        const { organisation, event, type } = row;
        await enqueueMails(tx, at, [
          {
            template: 'giftSent',
            to: giver.email,
            locale: giverLocale,
            org: organisation,
            params: {
              // What the giver typed: the address (lower-cased) or the username, never the receiver's profile name.
              receiver: 'email' in receiver ? receiver.email : usernameOf(receiverUser),
              ticket: { event, ticketName: type.name, calendarId: `ticket-${userTicketId}` },
              link: panelLink(deps.config.publicUrl, giverLocale, organisation.slug, { PANEL_TAB: 'MY_TICKET' }),
              // The cancelling .ics of the giver's calendar entry is stamped with the gift (issue 40 point 11).
              at,
            },
          },
          {
            template: 'giftReceived',
            to: receiverUser.email,
            locale,
            org: organisation,
            params: {
              giver: holderDisplayName(giver),
              ticket: {
                event,
                ticketName: type.name,
                calendarId: `ticket-${userTicketId}`,
                wallet: walletLinks(deps.config, locale, organisation.slug, userTicketId),
              },
              link: panelLink(deps.config.publicUrl, locale, organisation.slug, { PANEL_TAB: 'MY_TICKET' }),
              at,
            },
          },
        ]);
      });
      return { userTicketId };
    },

    /**
     * GET /mobile/users/?username=: prefix search, at most 10 `{ username, picture }`, never e-mails.
     * Privacy (issue 13): fewer than `USERNAME_SEARCH_MIN_LENGTH` characters answer an empty list (no
     * enumeration by one letter); only accounts whose owners have signed in at least once are listed.
     */
    async search(userId: number, prefix: string) {
      if (prefix.trim().length < USERNAME_SEARCH_MIN_LENGTH) return [];
      const rows = await repo.searchUsernames(db, prefix, userId, 10);
      return rows.map((r) => ({
        username: usernameOf({ nickname: r.nickname, usernameSuffix: r.suffix }),
        picture: r.picture,
      }));
    },

    /** The ownership history of a ticket (for tests and support). */
    history: (userTicketId: number) => repo.historyOf(db, userTicketId),
  };
}
export type GiftService = ReturnType<typeof createGiftService>;
