/**
 * Every TanStack Query key of the panel, in one factory (DESIGN: the cache tags of spec section 4 are
 * the query-key roots). Each tag's `all` key is what a mutation invalidates to refresh that tag ("profile
 * or username change refreshes USER", "confirming a swap refreshes TICKETS and SWAPPABLE_TICKETS",
 * "listing or unlisting refreshes LISTED_TICKETS and TICKETS_AVAILABLE_FOR_LISTING", "unlocking a benefit
 * refreshes SINGLE_TICKET"); the other keys sit under it, so invalidating `all` reaches them. A few
 * entries belong to no tag (configuration, the QR pass, username suggestions): no mutation refreshes them.
 * No query key is written anywhere else.
 */
import { CACHE_TAGS, type CacheTag, type TicketStatus } from '@tp/contract/constants';

/** The spec's cache tags by name, so every root below is one of them. */
const TAG = Object.fromEntries(CACHE_TAGS.map((tag) => [tag, tag])) as { readonly [K in CacheTag]: K };

export const queryKeys = {
  /** USER: the signed-in user (GET /auth/me), and the payout account shown with it. */
  user: {
    all: [TAG.USER] as const,
    payoutAccount: [TAG.USER, 'PAYOUT_ACCOUNT'] as const,
    /** The seller's earnings (GET /resell/earnings), shown on the payout tab. */
    earnings: [TAG.USER, 'EARNINGS'] as const,
    /** The account's passkeys (GET /auth/passkeys, issue 47), shown in Settings and asked by the offer of one. */
    passkeys: [TAG.USER, 'PASSKEYS'] as const,
  },
  /** TICKETS: the holder's ticket listing, by status. */
  tickets: {
    all: [TAG.TICKETS] as const,
    list: (status: TicketStatus) => [TAG.TICKETS, status] as const,
  },
  /** SINGLE_TICKET: one ticket with its benefits, by its (URL) userTicketId. */
  singleTicket: {
    all: [TAG.SINGLE_TICKET] as const,
    detail: (userTicketId: string) => [TAG.SINGLE_TICKET, userTicketId] as const,
  },
  /** SWAPPABLE_TICKETS: the holder's ticket types that may be swapped. */
  swappableTickets: {
    all: [TAG.SWAPPABLE_TICKETS] as const,
  },
  /** TICKETS_SWAP: the swap targets of a base ticket type. */
  ticketsSwap: {
    all: [TAG.TICKETS_SWAP] as const,
    targets: (ticketId: number) => [TAG.TICKETS_SWAP, ticketId] as const,
  },
  /** LISTED_TICKETS: the holder's resale listings, live (SALE) or sold (SOLD). */
  listedTickets: {
    all: [TAG.LISTED_TICKETS] as const,
    byState: (state: 'SALE' | 'SOLD') => [TAG.LISTED_TICKETS, state] as const,
  },
  /** TICKETS_AVAILABLE_FOR_LISTING: the listable tickets, and the pricing summary of a draft listing. */
  ticketsAvailableForListing: {
    all: [TAG.TICKETS_AVAILABLE_FOR_LISTING] as const,
    list: (preferUserTicketId: string | null) => [TAG.TICKETS_AVAILABLE_FOR_LISTING, preferUserTicketId] as const,
    calculation: (ticketId: number, selectedPrice: number, quantity: number) =>
      [TAG.TICKETS_AVAILABLE_FOR_LISTING, 'calculation', ticketId, selectedPrice, quantity] as const,
  },
  /** No tag: the organisation's panel configuration (GET /config). */
  config: ['CONFIG'] as const,
  /** No tag: the QR pass's ttl configuration, its image (polled) and the device's offline pass (IndexedDB). */
  qr: {
    config: ['QR_CONFIG'] as const,
    image: ['QR_IMAGE'] as const,
    devicePass: ['QR_DEVICE_PASS'] as const,
  },
  /** No tag: the holder's exchange queue entries (issue 45), refreshed by leaving or declining. */
  exchangeEntries: ['EXCHANGE_ENTRIES'] as const,
  /** No tag: whether a ticket can be sold to its event's exchange queue, and its state once returned (issue 45). */
  exchangeReturn: (userTicketId: number) => ['EXCHANGE_RETURN', userTicketId] as const,
  /** No tag: an event's public exchange queue (types at face value, open or not), for joining it (issue 45). */
  exchangePublic: (orgSlug: string, eventExternalId: string) => ['EXCHANGE_PUBLIC', orgSlug, eventExternalId] as const,
  /** No tag: username suggestions for a typed prefix. */
  userSearch: (prefix: string) => ['USER_SEARCH', prefix] as const,
};
