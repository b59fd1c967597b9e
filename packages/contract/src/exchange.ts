/**
 * The face-value exchange queue (issue 45, decision 042): an organiser turns it on per event
 * (`/v1/org/events/{externalId}/exchange`), fans wait in it per ticket type (`/v1/exchange/...`), holders return
 * tickets to it and organisers release stock into it; supply is offered to the next entry that fits, all or nothing.
 */
import * as z from 'zod';
import { instant } from './fields.js';
import { externalId, slug } from './organisations.js';

const id = z.number().int().positive().max(2_147_483_647);

/** Most minutes an offer may stay open (two days). */
export const EXCHANGE_OFFER_MINUTES_MAX = 2880;
/** Most tickets one entry may ask for (an event's `maxQuantity` is at most this). */
export const EXCHANGE_QUANTITY_MAX = 6;

/** How entries are ordered: first come, or a seeded draw at `drawAt` of the entries made before it. */
export const exchangeOrder = z.enum(['first_come', 'draw']);

/** PUT /v1/org/events/{externalId}/exchange body. */
export const exchangeSettingsRequest = z
  .strictObject({
    enabled: z.boolean(),
    offerMinutes: z.number().int().min(1).max(EXCHANGE_OFFER_MINUTES_MAX),
    order: exchangeOrder,
    drawAt: instant.optional(),
    maxQuantity: z.number().int().min(1).max(EXCHANGE_QUANTITY_MAX),
    closesAt: instant.optional(),
  })
  .refine((s) => s.order !== 'draw' || s.drawAt !== undefined, { path: ['drawAt'], message: 'required with draw' })
  .refine((s) => s.order === 'draw' || s.drawAt === undefined, { path: ['drawAt'], message: 'only with draw' })
  .meta({
    description:
      'Turns the exchange queue of the event on or off. An offer stays open `offerMinutes`; an entry asks for at ' +
      'most `maxQuantity` tickets of one type. `closesAt` defaults to the event’s transfer cut-off (else its start). ' +
      'With `order: "draw"`, entries made before `drawAt` are ordered at random at `drawAt`; later ones come after, ' +
      'first come.',
    examples: [{ enabled: true, offerMinutes: 20, order: 'first_come', maxQuantity: 4 }],
  });
export type ExchangeSettingsRequest = z.infer<typeof exchangeSettingsRequest>;

/** The settings as stored: `closesAt` as given (null: the default), `effectiveClosesAt` when the queue closes. */
export const exchangeSettings = z.object({
  enabled: z.boolean(),
  offerMinutes: z.number().int(),
  order: exchangeOrder,
  drawAt: z.string().nullable(),
  maxQuantity: z.number().int(),
  closesAt: z.string().nullable(),
  effectiveClosesAt: z.string(),
  closedAt: z.string().nullable(),
});
export type ExchangeSettings = z.infer<typeof exchangeSettings>;

/** Per ticket type of the event: entries waiting, offers open, tickets returned, released, sold, offers expired. */
export const exchangeTypeCounts = z.object({
  ticketTypeExternalId: z.string().nullable(),
  name: z.string(),
  waiting: z.number().int(),
  offered: z.number().int(),
  returned: z.number().int(),
  released: z.number().int(),
  sold: z.number().int(),
  expired: z.number().int(),
});

/** GET (and PUT's answer) /v1/org/events/{externalId}/exchange: the settings (null: never set) and the counts. */
export const exchangeOverview = z.object({
  settings: exchangeSettings.nullable(),
  types: z.array(exchangeTypeCounts),
});
export type ExchangeOverview = z.infer<typeof exchangeOverview>;

/** POST /v1/org/events/{externalId}/exchange/releases body: `quantity` new tickets at `priceCents` each. */
export const exchangeReleaseRequest = z
  .strictObject({
    ticketTypeExternalId: externalId,
    quantity: z.number().int().min(1).max(1000),
    priceCents: z.number().int().min(1).max(100_000_000),
  })
  .meta({
    description:
      'Releases stock into the queue: each ticket is issued to its buyer when the offer is paid, and paid to your ' +
      'organisation. `priceCents` is at most the type’s face value.',
    examples: [{ ticketTypeExternalId: 'ga', quantity: 10, priceCents: 9000 }],
  });
export type ExchangeReleaseRequest = z.infer<typeof exchangeReleaseRequest>;

/** POST /v1/org/events/{externalId}/exchange/releases answer (201): how many entries were offered at once. */
export const exchangeReleaseResponse = z.object({ released: z.number().int(), offered: z.number().int() });
export type ExchangeReleaseResponse = z.infer<typeof exchangeReleaseResponse>;

/** Path of the public queue page's API: the organisation's slug and the event's externalId. */
export const exchangeEventParams = z.strictObject({ orgSlug: slug, eventExternalId: externalId });

/** GET /v1/exchange/{orgSlug}/{eventExternalId}: what a fan may join (no other fan's data). */
export const exchangePublic = z.object({
  event: z.object({
    name: z.string(),
    venue: z.string(),
    city: z.string(),
    startsAt: z.string(),
    timeZone: z.string(),
  }),
  open: z.boolean(),
  closesAt: z.string(),
  maxQuantity: z.number().int(),
  types: z.array(
    z.object({
      ticketTypeExternalId: z.string(),
      name: z.string(),
      priceCents: z.number().int(),
      currencyCode: z.string(),
    }),
  ),
});
export type ExchangePublic = z.infer<typeof exchangePublic>;

/** POST /v1/exchange/{orgSlug}/{eventExternalId}/entries body: one entry per account per ticket type. */
export const joinExchangeRequest = z.strictObject({
  ticketTypeExternalId: externalId,
  quantity: z.number().int().min(1).max(EXCHANGE_QUANTITY_MAX),
});
export type JoinExchangeRequest = z.infer<typeof joinExchangeRequest>;

export const exchangeEntryStatus = z.enum(['WAITING', 'OFFERED', 'PURCHASED', 'EXPIRED', 'LEFT', 'CLOSED']);

/**
 * One of my entries. `position`: my rank among the type's waiting and offered entries (1 = next), while WAITING or
 * OFFERED and ordered; null otherwise, and null while the entry is "in the draw" (`inDraw`: a `draw` queue not yet
 * drawn; an entry made before `drawAt` is ordered at random at `drawAt`, one made after it comes after the drawn
 * ones, first come). `offer` while OFFERED.
 */
export const exchangeEntry = z.object({
  id,
  event: z.object({
    name: z.string(),
    externalId: z.string().nullable(),
    startsAt: z.string(),
    /** IANA zone the event's times are shown in. */
    timeZone: z.string(),
  }),
  ticketType: z.object({ name: z.string(), externalId: z.string().nullable() }),
  quantity: z.number().int(),
  status: exchangeEntryStatus,
  position: z.number().int().nullable(),
  inDraw: z.boolean(),
  offer: z.object({ expiresAt: z.string() }).nullable(),
  createdAt: z.string(),
});
export type ExchangeEntry = z.infer<typeof exchangeEntry>;

/**
 * POST /v1/exchange/entries/{id}/checkout answer: where the fan pays their open offer (the payment provider's page,
 * or the sandbox's); the same page for every call while the offer is open.
 */
export const exchangeCheckout = z.object({ checkoutUrl: z.string() });
export type ExchangeCheckout = z.infer<typeof exchangeCheckout>;

/** Path of `/v1/exchange/entries/{id}`. */
export const exchangeEntryParams = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** POST /v1/exchange/returns body: a ticket I hold, sold to the queue at face value. */
export const exchangeReturnRequest = z.strictObject({ userTicketId: id });

/** POST /v1/exchange/returns answer (201): the return's state (`AVAILABLE`, `HELD` or `RESERVED` at once). */
export const exchangeReturn = z.object({
  userTicketId: id,
  status: z.enum(['AVAILABLE', 'HELD', 'RESERVED']),
  priceCents: z.number().int(),
  currencyCode: z.string(),
});
export type ExchangeReturn = z.infer<typeof exchangeReturn>;

/**
 * GET /v1/exchange/returns/{userTicketId} answer: my ticket and its event's exchange queue, for the ticket page's
 * "Sell to the queue at face value". `returnable`: the queue takes it now (open, the ticket unused, not revoked, not
 * listed for resale, not returned already); `status`: while returned, its state (`RESERVED`: a fan's offer holds it,
 * so it cannot be taken back); `priceCents`/`currencyCode`: the face value the seller is paid, minor units;
 * `closesAt`: when the queue closes (null when it was never turned on).
 */
export const exchangeReturnState = z.object({
  userTicketId: id,
  returnable: z.boolean(),
  status: z.enum(['AVAILABLE', 'HELD', 'RESERVED']).nullable(),
  priceCents: z.number().int(),
  currencyCode: z.string(),
  closesAt: z.string().nullable(),
});
export type ExchangeReturnState = z.infer<typeof exchangeReturnState>;

/** Path of DELETE /v1/exchange/returns/{userTicketId}. */
export const exchangeReturnParams = z.strictObject({
  userTicketId: z.coerce.number().int().positive().max(2_147_483_647),
});

/**
 * POST /v1/org/payout-account body: the country of the organisation's payout account (ISO 3166-1 alpha-2; the
 * countries resale pays out in). The tickets it releases into its exchange queues are paid to this account.
 */
export const orgPayoutConnectRequest = z.strictObject({ country: z.string().length(2) });

/**
 * GET /v1/org/payouts: one payout owed to the organisation for a ticket it released that a fan bought through the
 * exchange queue; `amountCents` is the ticket's price (minor units), `soldAt` ISO 8601 UTC, `status` PENDING until
 * paid out, HELD while the fan's payment is disputed, CANCELLED when it went back (issue 46).
 */
export const orgPayout = z.object({
  id: z.number().int(),
  eventExternalId: z.string().nullable(),
  ticketTypeExternalId: z.string().nullable(),
  amountCents: z.number().int(),
  currencyCode: z.string(),
  soldAt: z.string(),
  status: z.enum(['PENDING', 'PAID', 'HELD', 'CANCELLED']),
});
export type OrgPayout = z.infer<typeof orgPayout>;
export const orgPayoutList = z.array(orgPayout);
