/**
 * The organiser side (issue 12): the platform admin API (`/v1/admin/*`, `Authorization: Bearer <ADMIN_KEY>`)
 * and the organisation API (`/v1/org/*`, `Authorization: Bearer <apiKey>`). Upserts are keyed by the
 * organiser's own ids (`externalId`), unique per organisation; money is integer cents with an ISO 4217
 * currency; times are ISO 8601 with an offset, stored in UTC.
 */
import * as z from 'zod';
import { email, errorBody } from './auth.js';
import { LOCALES } from './constants.js';
import { hasNoNul, instant } from './fields.js';
import { entryRules, syncConflictReason } from './access.js';
import { organisationLookFields } from './branding.js';
import { refundPolicy } from './refunds.js';

const id = z.number().int().positive().max(2_147_483_647);
const httpsUrl = z
  .url({ protocol: /^https$/ })
  .max(2000)
  .refine(hasNoNul)
  .meta({ description: 'an absolute https URL' });
/**
 * An image of an organisation or an event (logo, event image): an absolute https URL, or a path of a file this
 * server serves under `/public/` (e.g. the demo organisation's `/public/demo/org-logo.svg`, the demo events'
 * `/public/images/…`, issue 41 point 12): the panel, served from this server, loads it from its own origin and mails
 * make it absolute with the server's public URL. No `//`, `..`, query or fragment.
 */
const assetUrl = z
  .union([
    httpsUrl,
    z
      .string()
      .max(2000)
      .regex(/^\/public\/(?:[\w-]+(?:\.[\w-]+)*\/)*[\w-]+(?:\.[\w-]+)+$/),
  ])
  .meta({ description: 'an absolute https URL, or a path on this server under /public/ (e.g. /public/demo/logo.svg)' });
const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/)
  .meta({ description: 'a colour `#rrggbb`' });
/** Text a `text` column takes: no NUL character (issue 14). */
const text = (max: number) => z.string().trim().min(1).max(max).refine(hasNoNul);
const optionalText = (max: number) => z.string().trim().max(max).refine(hasNoNul).optional();
const cents = z.number().int().min(0).max(100_000_000);

let timeZones: Set<string> | undefined;
let currencies: Set<string> | undefined;
/** Whether this runtime knows the IANA time zone (`Australia/Sydney`, `Pacific/Auckland`, `UTC`...). */
const isTimeZone = (v: string) => v === 'UTC' || (timeZones ??= new Set(Intl.supportedValuesOf('timeZone'))).has(v);
/** Whether this runtime knows the ISO 4217 currency code. */
const isCurrency = (v: string) => (currencies ??= new Set(Intl.supportedValuesOf('currency'))).has(v);
const timeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'an IANA time zone such as Australia/Sydney')
  .meta({ description: 'IANA time zone' });
const currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .refine(isCurrency, 'an ISO 4217 currency code such as AUD')
  .meta({ description: 'ISO 4217 currency code (AUD, NZD...)' });

/** An organiser's own id: 1-100 characters of letters, digits, `.`, `_`, `:` and `-` (safe in a URL path). */
export const externalId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'use 1 to 100 letters, digits, dots, underscores, colons or hyphens, no spaces')
  .meta({ description: "the organiser's own id (letters, digits . _ : -, at most 100)", example: 'evt-2027-sydney' });
/** Path parameters `{ externalId }`. */
export const externalIdParams = z.object({ externalId });
/** An organisation's slug: lower-case letters, digits and inner hyphens, 2-40 characters. */
export const slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])$/)
  .meta({ example: 'southern-lights' });

// ----- admin -----

/** POST /v1/admin/organisations body. */
export const createOrganisationRequest = z
  .strictObject({
    slug,
    name: text(200),
    primaryColor: colour.optional(),
    logoUrl: assetUrl.optional(),
    websiteUrl: httpsUrl.optional(),
    helpCenterUrl: httpsUrl.optional(),
    appUrl: httpsUrl.optional(),
    /** The first owner's e-mail (issue 21): they sign in to the console with an e-mail code. */
    ownerEmail: email.optional(),
  })
  .meta({
    examples: [
      {
        slug: 'southern-lights',
        name: 'Southern Lights Live',
        primaryColor: '#7c3aed',
        logoUrl: 'https://southernlights.example/logo.svg',
        helpCenterUrl: 'https://southernlights.example/help',
        appUrl: 'https://southernlights.example/app',
        ownerEmail: 'owner@southernlights.example',
      },
    ],
  });

/** 201 answer: the API key is shown this once (only its hash is stored). */
export const createOrganisationResponse = z
  .object({ id, slug, apiKey: z.string() })
  .meta({ examples: [{ id: 2, slug: 'southern-lights', apiKey: 'tpk_Ab3dE6gH_9p...' }] });

/** Path parameters `{ id }` of an organisation. */
export const organisationParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
/** Path parameters `{ id, keyId }` of an organisation's API key. */
export const apiKeyParams = organisationParams.extend({
  keyId: z.coerce.number().int().positive().max(2_147_483_647),
});

/**
 * POST /v1/admin/organisations/{id}/api-keys answer (rotation): the new key (shown once); the keys that were
 * live keep working until `previousKeysExpireAt` (ISO 8601 UTC), then stop.
 */
export const rotateApiKeyResponse = z
  .object({ id, prefix: z.string(), apiKey: z.string(), previousKeysExpireAt: z.string() })
  .meta({
    examples: [
      { id: 3, prefix: 'tpk_Zx8kQ2mN', apiKey: 'tpk_Zx8kQ2mN_...', previousKeysExpireAt: '2027-01-01T01:00:00.000Z' },
    ],
  });

/** One API key as listed (never the key itself). Times ISO 8601 UTC. */
export const apiKeyItem = z.object({
  id,
  prefix: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

/**
 * POST /v1/org/api-keys answer (an owner in the console, issue 21): a new API key for machines, shown once; the
 * organisation's other keys keep working (no rotation: revoke them one by one).
 */
export const createApiKeyResponse = z
  .object({ id, prefix: z.string(), apiKey: z.string() })
  .meta({ examples: [{ id: 4, prefix: 'tpk_Zx8kQ2mN', apiKey: 'tpk_Zx8kQ2mN_...' }] });
/** Path parameters `{ id }` of one of the calling organisation's API keys. */
export const orgApiKeyParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// ----- organisation API -----

/** PUT /v1/org/events/{externalId} body. */
export const eventUpsertRequest = z
  .strictObject({
    name: text(200),
    venue: text(200),
    city: text(100),
    country: z.enum(['AU', 'NZ']),
    startsAt: instant,
    endsAt: instant,
    timeZone,
    address: optionalText(300),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    description: optionalText(20_000).meta({ description: 'HTML; the panel sanitises it before showing it' }),
    imageUrl: assetUrl.optional(),
    logoUrl: assetUrl.optional(),
    passRevealAt: instant
      .nullable()
      .optional()
      .meta({ description: "before it the holder's QR pass is not shown (the QR screen says when it appears)" }),
    transfersCloseAt: instant
      .nullable()
      .optional()
      .meta({ description: 'from it gift, resale and swap are refused (409 api.ticket.transfers_closed)' }),
  })
  .refine((e) => Date.parse(e.startsAt) < Date.parse(e.endsAt), {
    path: ['endsAt'],
    message: 'endsAt must be after startsAt',
  })
  .meta({
    examples: [
      {
        name: 'Harbour Lights Festival',
        venue: 'The Domain',
        city: 'Sydney',
        country: 'AU',
        startsAt: '2027-03-06T14:00:00+11:00',
        endsAt: '2027-03-06T23:00:00+11:00',
        timeZone: 'Australia/Sydney',
        address: 'Art Gallery Rd',
        latitude: -33.8688,
        longitude: 151.2153,
      },
    ],
  });
export type EventUpsertRequest = z.infer<typeof eventUpsertRequest>;

/**
 * Query of PUT /v1/org/events/{externalId} (issue 46): `notify=false` saves a change of the event's time or place
 * without e-mailing its holders (still audited, `detail.notified: false`); absent or `true`, they are told.
 */
export const eventUpsertQuery = z.object({
  notify: z
    .enum(['true', 'false'])
    .optional()
    .meta({ description: 'whether a change of time or place e-mails the holders (default true)' }),
});

/**
 * GET /v1/org/events/{externalId}/holders (issue 46): how many people a change of the event's time or place would
 * e-mail now: the distinct holders of its live tickets (not used, not revoked); 0 once the event has ended.
 */
export const eventHoldersResponse = z
  .object({ holders: z.number().int().nonnegative() })
  .meta({ examples: [{ holders: 412 }] });

/** A benefit of a ticket type, keyed by its own externalId within the type. */
export const benefitUpsert = z.strictObject({
  externalId,
  name: text(200),
  type: z.enum(['benefits.food_beverage', 'benefits.digital', 'benefits.perk', 'benefits.merch']),
  shortDescription: optionalText(500),
  fullDescription: optionalText(20_000),
  iconUrl: httpsUrl.optional(),
  validUntil: instant.optional(),
  isUnlockable: z.boolean().optional(),
  /** Code revealed when a holder unlocks the benefit (digital benefits). */
  redeemCode: optionalText(200),
});

/**
 * A type of the same event that a holder of this one may swap to; `priceDifferenceCents` what the holder pays per
 * ticket (negative: a downgrade, nothing refunded), default the target's price minus this type's.
 */
export const swapTarget = z.strictObject({
  ticketTypeExternalId: externalId,
  priceDifferenceCents: z.number().int().min(-100_000_000).max(100_000_000).optional(),
});

/** PUT /v1/org/ticket-types/{externalId} body. `resaleCapCents` defaults to `priceCents`. */
export const ticketTypeUpsertRequest = z
  .strictObject({
    eventExternalId: externalId,
    name: text(200),
    priceCents: cents,
    currency,
    isGiftable: z.boolean(),
    isResellable: z.boolean(),
    isSwappable: z.boolean(),
    description: optionalText(20_000),
    resaleCapCents: cents.optional(),
    benefits: z.array(benefitUpsert).max(50).optional(),
    stock: z
      .number()
      .int()
      .min(0)
      .max(10_000_000)
      .optional()
      .meta({ description: 'tickets of this type swaps may still give out (decremented by each swap to it)' }),
    swapTargets: z
      .array(swapTarget)
      .max(50)
      .optional()
      .meta({ description: 'types of the same event a holder of this type may swap to (targets left out are kept)' }),
    entryRules: entryRules
      .nullable()
      .optional()
      .meta({ description: 'days, entries and zones (decision 050); absent: kept (none on a new type); null: none' }),
  })
  .meta({
    examples: [
      {
        eventExternalId: 'evt-2027-sydney',
        name: 'General Admission',
        priceCents: 8900,
        currency: 'AUD',
        isGiftable: true,
        isResellable: true,
        isSwappable: false,
        resaleCapCents: 9800,
        benefits: [{ externalId: 'drink', name: 'Drink voucher', type: 'benefits.food_beverage' }],
      },
    ],
  });

/**
 * The language of a holder's account when issuing creates it (issue 40): their first e-mail, the panel's and every
 * later mail's language until they choose another. An existing account keeps its own. Default `en`.
 */
export const holderLanguage = z.enum(LOCALES).meta({
  description:
    "The new holder account's language (en or es): their first e-mail and the panel's. Ignored when the account exists. Default en.",
});

/** PUT /v1/org/tickets/{externalId} body. */
export const ticketUpsertRequest = z
  .strictObject({ ticketTypeExternalId: externalId, holderEmail: email, holderLanguage: holderLanguage.optional() })
  .meta({
    description:
      "Creates the account when needed (in `holderLanguage`, en or es, default en) and e-mails the holder in their account's language. " +
      'Another holderEmail re-issues the ticket only while it is still with the account it was issued to, unused, not listed for ' +
      'resale and not revoked (409 api.org.ticket_moved, api.org.ticket_used, api.org.ticket_in_resale, api.org.ticket_revoked); ' +
      'another ticket type is refused (409 api.org.ticket_type_locked).',
    examples: [{ ticketTypeExternalId: 'ga-2027-sydney', holderEmail: 'alex@example.com' }],
  });

/** What an upsert did: `created` (201), `updated` or `unchanged` (200). */
export const upsertStatus = z.enum(['created', 'updated', 'unchanged']);
/** Answer of every PUT. */
export const upsertResponse = z
  .object({ externalId, status: upsertStatus })
  .meta({ examples: [{ externalId: 'evt-2027-sydney', status: 'created' }] });

/**
 * Most data rows one import takes (the header row not counted), on both databases (issue 44: a stadium's 50,000 in
 * one file; decision 040); more answers 413 `api.org.import.too_many_rows`.
 */
export const IMPORT_MAX_ROWS = 50_000;
/**
 * Largest CSV body one import takes, bytes (10 MiB); more answers 413 `api.org.import.too_large`. 50,000 rows of
 * realistic ids and addresses are about 4 MB in UTF-8 and twice that in UTF-16 (Excel's "Unicode text").
 */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** The import's columns (header row, any order; other columns are ignored). */
export const IMPORT_COLUMNS = ['externalId', 'ticketTypeExternalId', 'holderEmail'] as const;
/**
 * The import's optional column (issue 40): `holderLanguage`, `en` or `es` (any case; empty: `en`), the language of a
 * holder account the row creates, as in PUT /org/tickets/{externalId}.
 */
export const IMPORT_LANGUAGE_COLUMN = 'holderLanguage';
/** Most row errors one answer lists (the first ones by row). */
export const IMPORT_MAX_ERRORS = 1000;

/**
 * GET /v1/org/tickets/import answer (issue 41, point 3): what one import takes on this instance. `maxRows`: data
 * rows (`IMPORT_MAX_ROWS`, both databases since issue 44); `maxBytes`: the file's size in bytes (`IMPORT_MAX_BYTES`);
 * `backgroundRows`: a file of more data rows than this is imported in the background (202 and an `importId`).
 */
export const importLimitsResponse = z
  .object({
    maxRows: z.number().int().positive(),
    maxBytes: z.number().int().positive(),
    backgroundRows: z.number().int().nonnegative(),
  })
  .meta({ examples: [{ maxRows: 50_000, maxBytes: 10_485_760, backgroundRows: 500 }] });
export type ImportLimits = z.infer<typeof importLimitsResponse>;

/** Query of POST /v1/org/tickets/import: `dryRun=true` validates every row and writes nothing. */
export const importQuery = z.object({ dryRun: z.enum(['true', 'false']).optional() });

/**
 * The body of POST /v1/org/tickets/import (`text/csv`), with what the API document says of it.
 * @param backgroundRows the API's default `IMPORT_BACKGROUND_ROWS` (a larger file is imported in the background)
 */
export const importCsvBody = (backgroundRows: number) =>
  z.string().meta({
    description:
      'The CSV file itself (UTF-8 or UTF-16), header row first; send it as it is, not JSON-encoded. ' +
      'The header row `externalId,ticketTypeExternalId,holderEmail` (any order; other columns ignored; an optional ' +
      '`holderLanguage` column, en or es, sets the language of the accounts rows create), at most ' +
      `${IMPORT_MAX_ROWS} rows and ${IMPORT_MAX_BYTES} bytes. Each row is a ` +
      'PUT /org/tickets/{externalId}. Any bad row: 422 with `errors: [{ row, message, field? }]` (row numbers as a ' +
      'spreadsheet shows them, the header is row 1) and nothing written. `?dryRun=true` checks without writing. ' +
      `A file of more than \`IMPORT_BACKGROUND_ROWS\` data rows (default ${backgroundRows}; \`backgroundRows\` of ` +
      'GET /org/tickets/import) is imported in the background: 202 with an `importId` to follow at ' +
      'GET /org/imports/{importId}, all or nothing likewise (decision 040).',
  });

/** One refused row of an import: `row` as a spreadsheet numbers it (the header is row 1); `message` a key. */
export const importRowError = z.object({
  row: z.number().int(),
  message: z.string(),
  field: z.string().optional(),
  /** An English sentence naming the column and what is wrong with it (issue 21). */
  detail: z.string().optional(),
  /**
   * The refused value as the organiser typed it, at most 40 characters; `''` for an empty cell (the client says
   * "empty" in its own language; issue 41 point 12).
   */
  value: z.string().optional(),
});
/** 200 answer of an import (with `dryRun`, what it would do). */
export const importResponse = z
  .object({ dryRun: z.boolean(), created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() })
  .meta({ examples: [{ dryRun: false, created: 998, updated: 0, unchanged: 2 }] });
/**
 * 202 answer of an import of more than `IMPORT_BACKGROUND_ROWS` rows (issue 44): it runs in the background; follow
 * it at GET /v1/org/imports/{importId}.
 */
export const importAcceptedResponse = z
  .object({ importId: z.string() })
  .meta({ examples: [{ importId: '0b9a3c1e-4f6d-4e8a-9a51-2c7d3f1b6e20' }] });
export type ImportAccepted = z.infer<typeof importAcceptedResponse>;
/** Where a background import is: waiting for its job, being checked or written, or finished. */
export const importStatus = z.enum(['queued', 'running', 'done', 'failed']);
/** Path of GET /v1/org/imports/{importId}. */
export const importIdParams = z.object({ importId: z.string() });
/**
 * GET /v1/org/imports/{importId} (issue 44): a background import's progress. `rowsDone` of `rowsTotal` data rows
 * written (0 while the rows are checked); `created`, `updated`, `unchanged` so far (all three once `done`);
 * `errors` when `failed`: the refused rows as a 422 of a small import lists them, and nothing was written.
 */
export const importStatusResponse = z
  .object({
    importId: z.string(),
    status: importStatus,
    rowsDone: z.number().int().nonnegative(),
    rowsTotal: z.number().int().nonnegative(),
    created: z.number().int().optional(),
    updated: z.number().int().optional(),
    unchanged: z.number().int().optional(),
    errors: z.array(importRowError).optional(),
  })
  .meta({
    examples: [
      {
        importId: '0b9a3c1e-4f6d-4e8a-9a51-2c7d3f1b6e20',
        status: 'running',
        rowsDone: 12_000,
        rowsTotal: 50_000,
        created: 12_000,
        updated: 0,
        unchanged: 0,
      },
    ],
  });
export type ImportStatus = z.infer<typeof importStatusResponse>;
/**
 * 409 answer of an import: `api.org.import.in_progress` while another of the same event runs, with `importId` the one
 * running; or a conflict of one of its tickets, as for `PUT /org/tickets/{externalId}` (`api.org.ticket_moved`,
 * `api.org.ticket_in_resale`…: another request changed it at the same time), without `importId`.
 */
export const importInProgressResponse = errorBody
  .extend({
    importId: z.string().optional().meta({ description: 'with `api.org.import.in_progress`: the import running' }),
  })
  .meta({ examples: [{ message: 'api.org.import.in_progress', importId: '0b9a3c1e-4f6d-4e8a-9a51-2c7d3f1b6e20' }] });

/**
 * 400 answer of an import that cannot be read: no header row naming the three columns, not CSV, or text in
 * an encoding other than UTF-8 or UTF-16 (`api.org.import.unsupported_encoding`, with `encoding`: `utf-32le`,
 * `utf-32be`, `utf-16le`/`utf-16be` for a file cut mid-character, `unknown` for bytes that are not UTF-8).
 */
export const importRefusedResponse = errorBody
  .extend({ encoding: z.string().optional() })
  .meta({ examples: [{ message: 'api.org.import.unsupported_encoding', encoding: 'unknown' }] });
/** 422 answer of an import with bad rows: nothing was written. */
export const importErrorResponse = errorBody
  .extend({
    message: z.literal('api.org.import.invalid_rows'),
    errors: z.array(importRowError),
  })
  .meta({
    examples: [
      {
        message: 'api.org.import.invalid_rows',
        errors: [{ row: 3, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId' }],
      },
    ],
  });

/** GET /v1/org/events/{externalId}/attendees.csv: the file (its format in the description). */
export const attendeesCsv = z.string().meta({
  description:
    'UTF-8 with a BOM, CRLF line ends; columns ticket, ticket type, status, holder e-mail, holder name, checked-in and ' +
    'revoked times (ISO 8601 UTC); headers in English or Spanish by `Accept-Language`, and so is the status (English: ' +
    "the API's status values; Spanish: Emitida, Regalada, En reventa, Revendida, Validada, Anulada). Cells starting " +
    "with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` so that spreadsheets do not run them as formulas.",
});
/**
 * POST /v1/org/events/{externalId}/cancel body (issue 46, decision 045): `reason`, your words to the holders (how to
 * get a refund), shown in their e-mail and panel; `dryRun: true` cancels nothing and answers what a cancel would touch.
 */
export const eventCancelRequest = z
  .strictObject({
    reason: z.string().trim().min(1).max(1000).optional(),
    dryRun: z.boolean().optional(),
  })
  .meta({
    description:
      'Marks the event cancelled in one transaction: no ticket of it admits (online at once; an offline door on its ' +
      'next sync answers `event_cancelled` and its next list is empty) or moves, its resale listings are taken off ' +
      'sale, its exchange queue closes, and you get `event.cancelled`. Then each holder gets an e-mail in their ' +
      'language with your `reason` and a calendar cancellation, and wallet passes show it (a durable run that ' +
      'resumes after a restart). Cancelling again changes nothing. An event that has ended (`endsAt` passed) is not ' +
      'cancelled: 409 `api.org.event_ended`. Decision 045.',
    examples: [{ reason: 'The venue flooded. Your ticket shop refunds every ticket within 14 days.' }],
  });

/**
 * Its answer: what the cancel touches (or touched): live tickets, the distinct holders told by e-mail, resale listings
 * taken off sale, resale orders waiting for payment (they can no longer be paid), exchange queue entries closed, and
 * wallet passes updated. `cancelledAt` (ISO 8601 UTC) is when it was cancelled, null for a dry run of an event not
 * cancelled; a second cancel changes nothing and answers the first one's time.
 */
export const eventCancelResponse = z
  .object({
    dryRun: z.boolean(),
    cancelledAt: z.string().nullable(),
    tickets: z.number().int(),
    holders: z.number().int(),
    listings: z.number().int(),
    openOrders: z.number().int(),
    exchangeEntries: z.number().int(),
    walletPasses: z.number().int(),
  })
  .meta({
    examples: [
      {
        dryRun: true,
        cancelledAt: null,
        tickets: 1000,
        holders: 930,
        listings: 12,
        openOrders: 1,
        exchangeEntries: 40,
        walletPasses: 310,
      },
    ],
  });
export type EventCancelResponse = z.infer<typeof eventCancelResponse>;

/**
 * GET /v1/org/events/{externalId}/attendance: counts over the event's live (not revoked) tickets (`checkedIn`: entered
 * at least once), and from every scan recorded (issue 48, decision 050; exact once offline doors synced):
 * `insideByZone` per zone (null: the general doors) the tickets inside now (their latest scan there an entry; zones
 * with none inside left out), `entriesByDay` per event-local day the tickets that entered at least once that day
 * (any zone), oldest day first.
 */
export const attendanceResponse = z
  .object({
    issued: z.number().int(),
    checkedIn: z.number().int(),
    listedForResale: z.number().int(),
    resold: z.number().int(),
    insideByZone: z.array(z.object({ zone: z.string().nullable(), inside: z.number().int() })),
    entriesByDay: z.array(z.object({ day: z.string(), entries: z.number().int() })),
  })
  .meta({
    examples: [
      {
        issued: 1000,
        checkedIn: 412,
        listedForResale: 7,
        resold: 23,
        insideByZone: [
          { zone: null, inside: 380 },
          { zone: 'VIP', inside: 41 },
        ],
        entriesByDay: [
          { day: '2027-07-10', entries: 402 },
          { day: '2027-07-11', entries: 377 },
        ],
      },
    ],
  });

/** Width of one bar of the console's check-in chart, in seconds: check-ins per 5 minutes (issue 21). */
export const CHECK_IN_BUCKET_SECONDS = 300;
/**
 * GET /v1/org/events/{externalId}/check-ins: the event dashboard's chart and conflicts (issue 21). The event day is
 * `from` (6 hours before the start, when doors may open) to `to` (the end); `buckets` are the check-ins (tickets
 * admitted, online or synced) per {@link CHECK_IN_BUCKET_SECONDS} in that window, one per bucket with any, `at`
 * the bucket's start (ISO 8601 UTC), oldest first. `conflicts`: what offline doors admitted that the server refused
 * when they synced (newest first, at most 200), by the ticket's externalId.
 */
export const checkInsResponse = z
  .object({
    bucketSeconds: z.number().int(),
    from: z.string(),
    to: z.string(),
    buckets: z.array(z.object({ at: z.string(), count: z.number().int() })),
    conflicts: z.array(
      z.object({
        ticketExternalId: z.string().nullable(),
        reason: syncConflictReason,
        scannedAt: z.string(),
        syncedAt: z.string(),
      }),
    ),
  })
  .meta({
    examples: [
      {
        bucketSeconds: 300,
        from: '2027-03-05T21:00:00.000Z',
        to: '2027-03-06T12:00:00.000Z',
        buckets: [
          { at: '2027-03-06T02:00:00.000Z', count: 41 },
          { at: '2027-03-06T02:05:00.000Z', count: 77 },
        ],
        conflicts: [
          {
            ticketExternalId: 'tkt-000123',
            reason: 'already_used',
            scannedAt: '2027-03-06T02:07:12.000Z',
            syncedAt: '2027-03-06T02:31:40.000Z',
          },
        ],
      },
    ],
  });
export type CheckInsBody = z.infer<typeof checkInsResponse>;
/** Most offline-door conflicts GET /v1/org/events/{externalId}/check-ins answers. */
export const CHECK_IN_CONFLICTS_MAX = 200;

// ----- organisation API: reads (issue 21) -----

/** Most items one page of a list answers; `limit` defaults to 50. */
export const PAGE_MAX_LIMIT = 200;
/** The paging query of every list: `cursor` is the `nextCursor` of the page before (opaque). */
export const pageQuery = z.object({
  cursor: z.string().max(200).optional().meta({ description: 'the `nextCursor` of the previous page (opaque)' }),
  limit: z.coerce.number().int().min(1).max(PAGE_MAX_LIMIT).default(50),
});
/** A page of `item`: `nextCursor` null on the last page. */
const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** Query of GET /v1/org/events: `when=upcoming` (default; not ended, soonest first) or `past` (ended, latest first). */
export const eventListQuery = pageQuery.extend({ when: z.enum(['upcoming', 'past']).default('upcoming') });
/** An event as the organisation API reads it back (times ISO 8601 UTC). */
export const eventItem = z.object({
  externalId: z.string().nullable(),
  name: z.string(),
  venue: z.string(),
  city: z.string(),
  country: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  logoUrl: z.string().nullable(),
  passRevealAt: z.string().nullable(),
  transfersCloseAt: z.string().nullable(),
  /** When the organiser cancelled it (issue 46, ISO 8601 UTC), null while it is on; a cancelled event cannot change. */
  cancelledAt: z.string().nullable(),
  /** The organiser's words to the holders given with the cancel, null without (or while not cancelled). */
  cancelReason: z.string().nullable(),
  /**
   * Beyond the spec (issue 46): who may ask for a refund (`PUT /v1/org/events/{externalId}/refund-policy`). Always
   * in this API's answers; optional in the schema so that clients built before it still read events.
   */
  refundPolicy: refundPolicy.optional(),
});
export const eventPage = page(eventItem).meta({
  examples: [
    {
      items: [
        {
          externalId: 'evt-2027-sydney',
          name: 'Harbour Lights Festival',
          venue: 'The Domain',
          city: 'Sydney',
          country: 'AU',
          startsAt: '2027-03-06T03:00:00.000Z',
          endsAt: '2027-03-06T12:00:00.000Z',
          timeZone: 'Australia/Sydney',
          address: 'Art Gallery Rd',
          latitude: -33.8688,
          longitude: 151.2153,
          description: null,
          imageUrl: null,
          logoUrl: null,
          passRevealAt: '2027-03-06T02:00:00.000Z',
          transfersCloseAt: '2027-03-05T03:00:00.000Z',
          cancelledAt: null,
          cancelReason: null,
          refundPolicy: { mode: 'none', until: null, deadline: null },
        },
      ],
      nextCursor: null,
    },
  ],
});

/** Query of GET /v1/org/ticket-types: the event's externalId. */
export const ticketTypeListQuery = pageQuery.extend({ event: externalId });
/** A ticket type as read back. `stock`: swap stock left (tickets a swap may still give out). */
export const ticketTypeItem = z.object({
  externalId: z.string().nullable(),
  eventExternalId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  priceCents: z.number().int(),
  currency: z.string(),
  resaleCapCents: z.number().int(),
  isGiftable: z.boolean(),
  isResellable: z.boolean(),
  isSwappable: z.boolean(),
  stock: z.number().int(),
  swapTargets: z.array(
    z.object({ ticketTypeExternalId: z.string().nullable(), priceDifferenceCents: z.number().int().nullable() }),
  ),
  /** Its entry rules (decision 050); null: none, `{ entries: "once" }`. */
  entryRules: entryRules.nullable(),
});
export const ticketTypePage = page(ticketTypeItem);

/**
 * A ticket's status, first that applies: `revoked`, `checked_in` (event access used), `listed` (in a live resale
 * listing), `resold` (sold through resale at least once), `transferred` (gifted or swapped since issue), `issued`.
 */
export const ticketStatus = z.enum(['issued', 'transferred', 'listed', 'resold', 'checked_in', 'revoked', 'refunded']);
export type TicketStatus = z.infer<typeof ticketStatus>;
/**
 * Query of GET /v1/org/tickets: `event` (externalId), `status`, and `search`: the start of the current holder's
 * e-mail, of their name (given or family), or of the ticket's externalId (case-insensitive; `%` and `_` are
 * plain characters), or the number the holder reads (`13` or `#13`: "Ticket #13" in the panel; issue 41, point 4).
 */
export const ticketListQuery = pageQuery.extend({
  event: externalId.optional(),
  status: ticketStatus.optional(),
  search: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine(hasNoNul)
    .optional()
    .meta({
      description:
        "matches the start of the current holder's e-mail, given or family name or full name (case-insensitive), " +
        "or of the ticket's externalId; `%` and `_` are plain characters.",
    }),
});
/** A person as the organiser sees them: null once the account was deleted (personal data erased). */
const person = z.object({ email: z.string(), name: z.string().nullable() }).nullable();
/**
 * How the last mail to a holder's address went (issue 41 point 6): `delivered` (the relay took it), `failing` (a
 * temporary failure, retried), `bounced` (the relay refused it for good, e.g. an unknown mailbox: not retried, and no
 * bulk mail — reminders, an event's changed time or place, a revoked ticket — is sent to it until a mail the
 * organiser or the holder causes, such as a re-sent ticket, is delivered; ask the holder for another address); null
 * before any mail.
 */
export const emailStatus = z.enum(['delivered', 'failing', 'bounced']);
/** The current holder as the organiser sees them, with how mail to them goes. */
const holder = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    emailStatus: emailStatus.nullable(),
    /** The relay's answer of the last failure (`550 5.1.1 user unknown`), null when the last mail went. */
    emailStatusDetail: z.string().nullable(),
  })
  .nullable();
/** A ticket as read back: its current holder (null while held under a resale code, or erased). */
export const ticketItem = z.object({
  externalId: z.string().nullable(),
  number: z.number().int().positive().meta({
    description:
      'the number the holder reads ("Ticket #13" in the panel: its userTicketId); search finds it as 13 or #13',
  }),
  ticketTypeExternalId: z.string().nullable(),
  eventExternalId: z.string().nullable(),
  status: ticketStatus,
  holder,
  createdAt: z.string(),
  checkedInAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export const ticketPage = page(ticketItem).meta({
  examples: [
    {
      items: [
        {
          externalId: 'T-0001',
          number: 13,
          ticketTypeExternalId: 'ga-2027-sydney',
          eventExternalId: 'evt-2027-sydney',
          status: 'issued',
          holder: { email: 'alex@example.com', name: 'Alex Doe', emailStatus: 'delivered', emailStatusDetail: null },
          createdAt: '2027-01-10T00:00:00.000Z',
          checkedInAt: null,
          revokedAt: null,
        },
      ],
      nextCursor: 'eyJpIjoxMn0',
    },
  ],
});

/**
 * One entry of a ticket's history, oldest first: `issued`, `reissued`, `transferred` (a gift: `from` → `to`),
 * `listed` (put on resale), `resold` (sold: `from` the seller), `redeemed` (the buyer took it: `to`), `swapped`,
 * `checked_in` (`doorKey` name, null for the platform key; `offline`; `at` the scan time), `revoked`,
 * `payment_reversed` (the payment it was bought with was refunded or disputed: it no longer admits; issue 46),
 * `reinstated` (a dispute of that payment was won: it admits again), `returned_to_seller` (the event was cancelled and
 * the payment refunded before the seller was paid: the ticket went back to its seller, `from` the buyer).
 */
export const ticketHistoryEntry = z.object({
  kind: z.enum([
    'issued',
    'reissued',
    'transferred',
    'listed',
    'resold',
    'redeemed',
    'swapped',
    'checked_in',
    'revoked',
    'payment_reversed',
    'reinstated',
    'returned_to_seller',
  ]),
  at: z.string(),
  from: person.optional(),
  to: person.optional(),
  doorKey: z.string().nullable().optional(),
  offline: z.boolean().optional(),
});
/**
 * GET /v1/org/tickets/{externalId}: the ticket and its history; `eventCancelled`: its event is cancelled (issue 46), so
 * its "your ticket" mail is not sent again (POST …/resend answers 409 `api.org.event_cancelled`).
 */
export const ticketDetail = ticketItem.extend({
  history: z.array(ticketHistoryEntry),
  eventCancelled: z.boolean().meta({ description: "the ticket's event is cancelled: no resend of its mail" }),
});

/** How many times an hour one ticket's e-mail may be re-sent (POST /v1/org/tickets/{externalId}/resend). */
export const TICKET_RESENDS_PER_HOUR = 3;
/** POST /v1/org/tickets/{externalId}/resend answer (202): the current holder's e-mail the ticket mail goes to. */
export const resendTicketResponse = z.object({ email: z.string() }).meta({ examples: [{ email: 'ana@example.com' }] });

// ----- organisation API: the organisation itself (issue 21) -----

/**
 * PATCH /v1/org/organisation body: the fields given change (validated as at creation: https URLs, the logo also a
 * `/public/` path, `#rrggbb`);
 * `null` clears a link, the logo or the colour (the panel's defaults then apply).
 */
/** The largest reschedule threshold an organisation may set, in minutes: one week (issue 46). */
export const RESCHEDULE_THRESHOLD_MAX_MINUTES = 10_080;
const rescheduleThresholdMinutes = z
  .number()
  .int()
  .min(0)
  .max(RESCHEDULE_THRESHOLD_MAX_MINUTES)
  .meta({
    description:
      "A change of an event's start or end by more than this many minutes is a new date (issue 46): the event is " +
      'marked rescheduled, its wallet passes and reminder follow, and its refund policy `on_reschedule` opens. 0: any move.',
  });

export const updateOrganisationRequest = z
  .strictObject({
    name: text(200).optional(),
    logoUrl: assetUrl.nullable().optional(),
    primaryColor: colour.nullable().optional(),
    websiteUrl: httpsUrl.nullable().optional(),
    helpCenterUrl: httpsUrl.nullable().optional(),
    appUrl: httpsUrl.nullable().optional(),
    rescheduleThresholdMinutes: rescheduleThresholdMinutes.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'at least one field' })
  .meta({
    description:
      'Only the fields given change; `null` clears a link, the logo or the colour. URLs must be https; the colour ' +
      '`#rrggbb` (the panel adjusts its contrast per theme).',
    examples: [{ primaryColor: '#0f766e', websiteUrl: 'https://southernlights.example' }],
  });
/** The calling organisation as GET and PATCH /v1/org/organisation answer it: its brand and its reschedule threshold. */
export const organisationItem = z.object({ ...organisationLookFields, rescheduleThresholdMinutes }).meta({
  examples: [
    {
      slug: 'southern-lights',
      name: 'Southern Lights Live',
      logoUrl: 'https://southernlights.example/logo.svg',
      primaryColor: '#0f766e',
      websiteUrl: 'https://southernlights.example',
      helpCenterUrl: null,
      appUrl: null,
      rescheduleThresholdMinutes: 60,
    },
  ],
});
