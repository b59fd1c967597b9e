/**
 * Database schema (Drizzle, PostgreSQL dialect; the same SQL runs on PGlite and PostgreSQL).
 * Times are `timestamptz` (UTC); money is integer minor units with an ISO 4217 currency code.
 */
import {
  pgTable,
  serial,
  integer,
  text,
  timestamp,
  boolean,
  doublePrecision,
  uuid,
  uniqueIndex,
  index,
  primaryKey,
  jsonb,
  customType,
  bigint,
  pgSequence,
  check,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { EntryRules } from '@tp/contract/entry-rules';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A `bytea` column read as a Buffer (PGlite answers a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * An organiser (issue 12). Created by the platform admin (`POST /v1/admin/organisations`); its brand
 * (`primaryColor` `#rrggbb`, https `logoUrl`, `helpCenterUrl`, `appUrl`) dresses the panel opened with its slug.
 */
export const organisations = pgTable('organisations', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  /** Logo URL (absolute https, or a path on this service for the demo). The column kept its old name `logo`. */
  logoUrl: text('logo'),
  website: text('website'),
  /** Brand colour, `#rrggbb`; null: the panel's default. */
  primaryColor: text('primary_color'),
  /** Help centre link shown in the panel; null: HELP_CENTER_URL. */
  helpCenterUrl: text('help_center_url'),
  /** Get-the-app link shown in the panel; null: APP_URL. */
  appUrl: text('app_url'),
  createdAt: ts('created_at').notNull().defaultNow(),
  /**
   * A change of an event's start or end by more than this many minutes marks it rescheduled (issue 46, "a new date"):
   * its holders get the new date and, where the event's refund policy is `on_reschedule`, may ask for a refund.
   */
  rescheduleThresholdMinutes: integer('reschedule_threshold_minutes').notNull().default(60),
});

/**
 * An organisation's logo as its e-mails carry it (issue 41 point 9: no remote resource in a mail): the image at
 * `sourceUrl` (the organisation's `logo` when it was fetched), decoded and drawn as a small PNG (80 × 80 px, contain,
 * transparent) by the logo job (providers/mail/mail-logo.ts). A mail uses it only while `sourceUrl` is the
 * organisation's logo URL; otherwise (not fetched yet, failed, changed since) its header shows the name alone.
 */
export const organisationLogos = pgTable('organisation_logos', {
  organisationId: integer('organisation_id')
    .primaryKey()
    .references(() => organisations.id),
  /** The logo URL the PNG was made from (as stored in `organisations.logo`). */
  sourceUrl: text('source_url').notNull(),
  /** The PNG, at most a few kilobytes. */
  png: bytea('png').notNull(),
  fetchedAt: ts('fetched_at').notNull(),
});

/**
 * An organisation's API keys, stored as SHA-256 hashes (the key is shown once). A key works while
 * `revokedAt` is null and `expiresAt` is null or in the future; rotation gives the previous keys an
 * `expiresAt` (short overlap), revocation sets `revokedAt`.
 */
export const organisationApiKeys = pgTable(
  'organisation_api_keys',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    /** The key's public start (`tpk_` + 8 characters), shown in lists and used to find the row. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    index('organisation_api_keys_prefix_idx').on(t.prefix),
    index('organisation_api_keys_org_idx').on(t.organisationId),
  ],
);

/**
 * The people of an organisation (issue 21): who signs in to the console with their e-mail code, and with which
 * role (`owner`: everything, keys, members and branding; `staff`: events, tickets, imports, attendance and
 * webhooks; `door`: door keys and the scanner; contract `ORG_ROLES`). One row per organisation and account.
 */
export const organisationMembers = pgTable(
  'organisation_members',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('organisation_members_org_user_idx').on(t.organisationId, t.userId),
    index('organisation_members_user_idx').on(t.userId),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull().unique(),
    givenName: text('given_name'),
    familyName: text('family_name'),
    nickname: text('nickname').notNull(),
    /** The unchangeable numeric part of the username (`nickname#suffix`); `nickname#suffix` is unique, case-insensitively. */
    usernameSuffix: integer('username_suffix').notNull(),
    phoneNumber: text('phone_number').unique(),
    picture: text('picture'),
    locale: text('locale').notNull().default('en'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Set when the holder deleted the account: personal data erased, rows kept for history (DELETE /auth/account). */
    deletedAt: ts('deleted_at'),
    /**
     * How the last mail to this address went (issue 41 point 6): `delivered` (the relay took it), `failing` (a
     * temporary failure: retried until the attempts run out), `bounced` (refused for good: an SMTP 5xx, never retried);
     * null before any mail. The organiser's console shows it beside the holder.
     */
    emailStatus: text('email_status'),
    /** When `emailStatus` was set (UTC). */
    emailStatusAt: ts('email_status_at'),
    /** The relay's answer of the last failure (e.g. `550 5.1.1 user unknown`), at most 300 characters. */
    emailStatusDetail: text('email_status_detail'),
    /**
     * When the holder turned reminder e-mails off (issue 41 point 9: the reminder's one-click `List-Unsubscribe`,
     * or the panel's settings), UTC; null while reminders are on (the default). Housekeeping claims no reminder
     * for a holder with this set.
     */
    remindersOffAt: ts('reminders_off_at'),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(sql`lower(${t.nickname})`, t.usernameSuffix),
    /** The organiser's holder search by the start of an e-mail (`like 'x%'`, issue 21). */
    index('users_email_pattern_idx').on(t.email.op('text_pattern_ops')),
  ],
);

/** One sign-in attempt: a code sent to an e-mail. Only the newest live one per e-mail works. */
export const loginRequests = pgTable(
  'login_requests',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    /** HMAC-SHA256(server pepper, salt:code), hex. The code itself is never stored. */
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** Language of the panel that asked for the code (`en`/`es`); a new account takes it. */
    locale: text('locale').notNull().default('en'),
    expiresAt: ts('expires_at').notNull(),
    /** Set when used, superseded by a newer code, or ended by too many wrong codes. */
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('login_requests_email_idx').on(t.email, t.createdAt)],
);

/** A signed-in session (refresh token family). */
export const authSessions = pgTable('auth_sessions', {
  id: uuid('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  /** Absolute end of the sign-in, whatever the rotations. */
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  /**
   * The last proof of presence in this sign-in (issue 47, decision 048): the sign-in itself, or a step-up code
   * verified since. Routes that move a ticket or money want it within STEP_UP_MAX_AGE_SECONDS. Null: none yet (a
   * session opened before step-up existed).
   */
  steppedUpAt: ts('stepped_up_at'),
});

/**
 * A step-up code (issue 47): a code e-mailed to the account's address for one signed-in session, proving presence
 * before `action`. Only the newest open one of a session works; the code itself is never stored.
 */
export const stepUpRequests = pgTable(
  'step_up_requests',
  {
    id: uuid('id').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id),
    /** What the code allows (`gift`, `resale_listing`, …: the contract's `stepUpAction`), named in the e-mail. */
    action: text('action').notNull(),
    /** HMAC-SHA256(server pepper, salt:code), hex, as a sign-in code's. */
    codeHash: text('code_hash').notNull(),
    salt: text('salt').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    /** Set when used, superseded by a newer code, or ended by too many wrong codes. */
    closedAt: ts('closed_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('step_up_requests_session_idx').on(t.sessionId, t.createdAt)],
);

/**
 * A passkey of an account (issue 47, decision 049): a WebAuthn credential whose private key stays on the holder's
 * device. Removed with the account (and by its holder, after a step-up).
 */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    /** The credential id the authenticator chose, base64url. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The public key, COSE-encoded, as the registration gave it. */
    publicKey: bytea('public_key').notNull(),
    /** The authenticator's signature counter at the last use (0 where it keeps none); a lower one is a clone. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** The transports the browser reported (`internal`, `hybrid`, `usb`, …), for the next request's hints. */
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whether the key is synced by its provider (a "multi-device" credential). */
    backedUp: boolean('backed_up').notNull().default(false),
    /** A name for the holder: the browser and system it was made on, from the registration's User-Agent. */
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('webauthn_credentials_user_idx').on(t.userId)],
);

/**
 * A WebAuthn challenge the server handed out (decision 049): single use, short-lived. `register` and `step_up` belong
 * to one signed-in session; `sign_in` to nobody yet (a discoverable credential names its account).
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    /** The challenge itself, base64url of 32 random bytes. */
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign_in', 'step_up'] }).notNull(),
    sessionId: uuid('session_id').references(() => authSessions.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    /** Set when a response used it: a second use is a replay. */
    usedAt: ts('used_at'),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/** Opaque refresh tokens, stored as SHA-256 hashes; rotated on every use. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** When it was exchanged for a newer token. */
    rotatedAt: ts('rotated_at'),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    /** The organiser's own id (`PUT /v1/org/events/{externalId}`), unique per organisation; null for events made otherwise. */
    externalId: text('external_id'),
    name: text('name').notNull(),
    /** Organiser HTML; sanitised by the panel before rendering. */
    description: text('description'),
    city: text('city').notNull(),
    country: text('country').notNull(),
    venue: text('venue').notNull(),
    address1: text('address1').notNull(),
    /** Null when the organiser did not give it (the panel then links a map search of the address). */
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    timeZone: text('time_zone').notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    image: text('image'),
    logo: text('logo'),
    /** Before this time the holder's QR pass is not shown (the QR screen says when it appears); null: always. */
    passRevealAt: ts('pass_reveal_at'),
    /** From this time gift, resale and swap are refused (`api.ticket.transfers_closed`); null: until the end. */
    transfersCloseAt: ts('transfers_close_at'),
    /**
     * Set when the organiser cancelled the event (issue 46, decision 045): no ticket of it admits or moves, and its
     * holders are told by the cancel run (`cancelCursor`).
     */
    cancelledAt: ts('cancelled_at'),
    /** The organiser's words to the holders (refund instructions), or null. */
    cancelReason: text('cancel_reason'),
    /**
     * The cancel run's progress: the highest ticket id whose holder was told (0 before the first batch); null once
     * every holder was told. Each batch's e-mails are queued in the transaction that moves it, so a restart halfway
     * tells no holder twice and misses none.
     */
    cancelCursor: integer('cancel_cursor'),
    /**
     * When the event last moved to a new date (its start or end changed by more than the organisation's
     * `rescheduleThresholdMinutes`, issue 46), or null.
     */
    rescheduledAt: ts('rescheduled_at'),
    /**
     * Who may ask for a refund (issue 46, `PUT /v1/org/events/{externalId}/refund-policy`): `none`; `until` (any
     * holder until `refundUntil`); `on_cancel` (once the event is cancelled, until `refundDeadline` when set);
     * `on_reschedule` (once the event is rescheduled, until `refundDeadline`).
     */
    refundPolicy: text('refund_policy').notNull().default('none'),
    /** Policy `until`: requests are taken until this time (UTC). */
    refundUntil: ts('refund_until'),
    /** Policies `on_cancel` and `on_reschedule`: requests are taken until this time (UTC); null: no end. */
    refundDeadline: ts('refund_deadline'),
  },
  (t) => [uniqueIndex('events_org_external_uq').on(t.organisationId, t.externalId)],
);

export const ticketTypes = pgTable(
  'ticket_types',
  {
    id: serial('id').primaryKey(),
    /** The event's organisation (denormalised so the organiser's ids are unique per organisation). */
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    /** The organiser's own id (`PUT /v1/org/ticket-types/{externalId}`), unique per organisation. */
    externalId: text('external_id'),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    name: text('name').notNull(),
    description: text('description'),
    logo: text('logo'),
    priceCents: integer('price_cents').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** Resale price cap per ticket, minor units. */
    maxResalePriceCents: integer('max_resale_price_cents').notNull(),
    stock: integer('stock').notNull().default(0),
    isGiftable: boolean('is_giftable').notNull().default(true),
    isResellable: boolean('is_resellable').notNull().default(true),
    isSwappable: boolean('is_swappable').notNull().default(false),
    /**
     * Counts changes of the type's benefits (a trigger on `benefits`, migration 0017), so that such a change also
     * makes a new version of this row (its `xmin`), which the ticket listing's cache checks (tickets.service.ts).
     */
    benefitsVersion: integer('benefits_version').notNull().default(0),
    /** Entry rules (issue 48, decision 050: contract `access.entryRules`); null: `{ entries: "once" }`. */
    entryRules: jsonb('entry_rules').$type<EntryRules>(),
  },
  (t) => [uniqueIndex('ticket_types_org_external_uq').on(t.organisationId, t.externalId)],
);

/** One admission held by one user. The holder changes on gift, resale, redeem. */
export const userTickets = pgTable(
  'user_tickets',
  {
    id: serial('id').primaryKey(),
    /** The ticket's organisation (denormalised so the organiser's ids are unique per organisation). */
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    /** The organiser's own id (`PUT /v1/org/tickets/{externalId}`), unique per organisation. */
    externalId: text('external_id'),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    /** Null while held under a resale code. */
    holderId: integer('holder_id').references(() => users.id),
    eventAccessUsedAt: ts('event_access_used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * Set when the organiser revoked the ticket (`DELETE /v1/org/tickets/{externalId}`): it leaves the holder's
     * lists, may not move and no longer admits. The row stays for history.
     */
    revokedAt: ts('revoked_at'),
    /**
     * Why the ticket no longer admits when it was not the organiser's revoke (issue 46, decision 044): `refunded` (the
     * payment it was bought with went back: refunded, or a dispute lost) or `disputed` (that payment is disputed: it
     * admits again if the dispute is won). Null with `revokedAt` set: the organiser revoked it.
     */
    revokedReason: text('revoked_reason'),
    /**
     * Counts changes of the rows the ticket's listing item shows beside its own: its held benefits
     * (`user_ticket_benefits`) and resale entries (`resale_listing_tickets`). Triggers bump it (migration 0017), so
     * that such a change also makes a new version of this row (its `xmin`), which the listing's cache checks.
     */
    relatedVersion: integer('related_version').notNull().default(0),
  },
  (t) => [
    index('user_tickets_holder_idx').on(t.holderId),
    index('user_tickets_type_idx').on(t.ticketTypeId),
    uniqueIndex('user_tickets_org_external_uq').on(t.organisationId, t.externalId),
    /** The organiser's ticket search by the start of an externalId (`like 'x%'`, issue 21). */
    index('user_tickets_org_external_pattern_idx').on(t.organisationId, t.externalId.op('text_pattern_ops')),
  ],
);

/** Benefits an organiser attaches to a ticket type (add-ons, digital codes...). */
export const benefits = pgTable(
  'benefits',
  {
    id: serial('id').primaryKey(),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    /** The organiser's own id of the benefit within its ticket type (`benefits[].externalId` of the ticket-type PUT). */
    externalId: text('external_id'),
    name: text('name').notNull(),
    shortDescription: text('short_description'),
    fullDescription: text('full_description'),
    type: text('type').notNull(),
    icon: text('icon'),
    iconColor: text('icon_color'),
    iconBgColor: text('icon_bg_color'),
    image: text('image'),
    validUntil: ts('valid_until'),
    isUnlockable: boolean('is_unlockable').notNull().default(false),
    /** Code revealed on unlock (digital benefits). */
    redeemCode: text('redeem_code'),
  },
  (t) => [uniqueIndex('benefits_type_external_uq').on(t.ticketTypeId, t.externalId)],
);

export const userTicketBenefits = pgTable(
  'user_ticket_benefits',
  {
    id: serial('id').primaryKey(),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    benefitId: integer('benefit_id')
      .notNull()
      .references(() => benefits.id),
    purchasedAmount: integer('purchased_amount').notNull(),
    usedAmount: integer('used_amount').notNull().default(0),
    lastUsedAt: ts('last_used_at'),
    unlockedAt: ts('unlocked_at'),
    /** The holder who revealed the code; to any later holder the benefit shows as claimed (used, no code). */
    unlockedBy: integer('unlocked_by').references(() => users.id),
  },
  (t) => [uniqueIndex('user_ticket_benefits_uq').on(t.userTicketId, t.benefitId)],
);

/** Every ownership move of a ticket: from, to, when, how. */
export const ticketHistory = pgTable('ticket_history', {
  id: serial('id').primaryKey(),
  userTicketId: integer('user_ticket_id')
    .notNull()
    .references(() => userTickets.id),
  fromUserId: integer('from_user_id').references(() => users.id),
  toUserId: integer('to_user_id').references(() => users.id),
  kind: text('kind').notNull(),
  at: ts('at').notNull().defaultNow(),
});

/**
 * One reminder e-mail sent before an event (issue 23, REMINDER_HOURS): claimed by the housekeeping job in the
 * transaction that decides to send it. The key (ticket, event start) lets a ticket be reminded once per start
 * time: never twice, even with several instances, and again when the organiser moves the event.
 */
export const ticketReminders = pgTable(
  'ticket_reminders',
  {
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    eventStartsAt: ts('event_starts_at').notNull(),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userTicketId, t.eventStartsAt] })],
);

/** Organiser-defined swap pairs: a holder of `fromTicketTypeId` may swap to `toTicketTypeId` (same event). */
export const swapPairs = pgTable(
  'swap_pairs',
  {
    id: serial('id').primaryKey(),
    fromTicketTypeId: integer('from_ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    toTicketTypeId: integer('to_ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    /**
     * What a holder pays per ticket for this swap, minor units (negative: a downgrade, nothing refunded); null:
     * the target's price minus the base's (issue 21: the organiser's `swapTargets[].priceDifferenceCents`).
     */
    priceDifferenceCents: integer('price_difference_cents'),
  },
  (t) => [uniqueIndex('swap_pairs_uq').on(t.fromTicketTypeId, t.toTicketTypeId)],
);

/** A swap started by a holder: reserved until `expiresAt`, confirmed after payment (or at once for a downgrade). */
export const swaps = pgTable(
  'swaps',
  {
    /** The swapIdentifier / orderIdentifier. */
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    swapPairId: integer('swap_pair_id')
      .notNull()
      .references(() => swapPairs.id),
    quantity: integer('quantity').notNull(),
    swapType: text('swap_type').notNull(),
    /** Price difference per ticket (target - base), minor units; negative for a downgrade. */
    differenceCents: integer('difference_cents').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** PENDING, CONFIRMED, CANCELLED. */
    status: text('status').notNull(),
    redirectUrl: text('redirect_url'),
    paidAt: ts('paid_at'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    confirmedAt: ts('confirmed_at'),
  },
  (t) => [index('swaps_pair_status_idx').on(t.swapPairId, t.status)],
);

/** A seller's payout account (Stripe Connect, or the sandbox provider). */
/** The columns of a payout account, whoever it pays (a holder's or an organisation's). */
const payoutAccountColumns = () => ({
  provider: text('provider').notNull(),
  /** Provider's account id (Stripe `acct_...`, sandbox `sbx_...`). */
  externalId: text('external_id').notNull().unique(),
  country: text('country'),
  /** PENDING until the provider verifies the account, then VERIFIED. */
  status: text('status').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  verifiedAt: ts('verified_at'),
});

export const payoutAccounts = pgTable('payout_accounts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  ...payoutAccountColumns(),
});

/**
 * An organisation's payout account (issue 45, decision 042): where the face value of the tickets it releases into
 * its exchange queue is paid. Opened with the payout provider as a seller's is (`payout_accounts`), verified by the
 * provider's `account.updated` (or the sandbox form).
 */
export const organisationPayoutAccounts = pgTable('organisation_payout_accounts', {
  organisationId: integer('organisation_id')
    .primaryKey()
    .references(() => organisations.id),
  ...payoutAccountColumns(),
});

/** A resale listing: `quantity` tickets of one type at `priceCents` each plus `feeCents` each paid by the buyer. */
export const resaleListings = pgTable(
  'resale_listings',
  {
    id: serial('id').primaryKey(),
    sellerId: integer('seller_id')
      .notNull()
      .references(() => users.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    quantity: integer('quantity').notNull(),
    soldQuantity: integer('sold_quantity').notNull().default(0),
    priceCents: integer('price_cents').notNull(),
    feeCents: integer('fee_cents').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** LISTED, DELISTED or SOLD. */
    status: text('status').notNull(),
    shareToken: text('share_token').notNull().unique(),
    idempotencyKey: text('idempotency_key'),
    listedAt: ts('listed_at').notNull(),
    soldAt: ts('sold_at'),
    delistedAt: ts('delisted_at'),
  },
  (t) => [uniqueIndex('resale_listings_idem_uq').on(t.sellerId, t.idempotencyKey)],
);

/** Tickets of a listing: LISTED, SOLD or RETURNED (delisted). A ticket is in at most one LISTED row. */
export const resaleListingTickets = pgTable(
  'resale_listing_tickets',
  {
    listingId: integer('listing_id')
      .notNull()
      .references(() => resaleListings.id),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    status: text('status').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.userTicketId] }),
    uniqueIndex('resale_listing_tickets_live_uq')
      .on(t.userTicketId)
      .where(sql`status = 'LISTED'`),
  ],
);

/** A buyer's purchase; once paid its tickets are held under a single-use secret code (stored hashed). */
export const resaleOrders = pgTable('resale_orders', {
  id: uuid('id').primaryKey(),
  listingId: integer('listing_id')
    .notNull()
    .references(() => resaleListings.id),
  quantity: integer('quantity').notNull(),
  buyerEmail: text('buyer_email').notNull(),
  locale: text('locale').notNull(),
  /** Buyer's total (price + fee) x quantity, minor units. */
  totalCents: integer('total_cents').notNull(),
  feeCents: integer('fee_cents').notNull(),
  currencyCode: text('currency_code').notNull(),
  /** PENDING, PAID or FAILED. */
  status: text('status').notNull(),
  idempotencyKey: text('idempotency_key').unique(),
  checkoutSessionId: text('checkout_session_id'),
  /** The provider's payment (Stripe PaymentIntent) that paid the order, where it said: how a refund or dispute finds it. */
  paymentIntentId: text('payment_intent_id').unique(),
  codeHash: text('code_hash').unique(),
  redeemedAt: ts('redeemed_at'),
  redeemedBy: integer('redeemed_by').references(() => users.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  paidAt: ts('paid_at'),
});

export const resaleOrderTickets = pgTable(
  'resale_order_tickets',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => resaleOrders.id),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.userTicketId] })],
);

/** What a seller is owed for a sale: the buyer's total minus the service fee. */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    /** The resale order sold, or null for a ticket sold through an exchange queue (`exchangeUnitId`). */
    orderId: uuid('order_id')
      .unique()
      .references(() => resaleOrders.id),
    /** The exchange unit sold (decision 042): one payout per returned ticket. */
    exchangeUnitId: integer('exchange_unit_id')
      .unique()
      .references((): AnyPgColumn => exchangeUnits.id),
    /** The holder paid (a resale or a returned ticket), or null when the organisation is (`organisationId`). */
    sellerId: integer('seller_id').references(() => users.id),
    /** The organisation paid for a unit it released into its exchange queue (decision 042), else null. */
    organisationId: integer('organisation_id').references(() => organisations.id),
    amountCents: integer('amount_cents').notNull(),
    currencyCode: text('currency_code').notNull(),
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    check('payouts_one_sale_ck', sql`num_nonnulls(${t.orderId}, ${t.exchangeUnitId}) = 1`),
    check('payouts_one_payee_ck', sql`num_nonnulls(${t.sellerId}, ${t.organisationId}) = 1`),
    index('payouts_organisation_idx').on(t.organisationId),
  ],
);

/**
 * A paid order's payment that went back (issue 46, decision 044): refunded, or disputed (a chargeback) and how the
 * dispute closed. One row per provider refund or dispute (`providerRef`: the charge's or the dispute's id).
 * `kind`: `resale` (a resale order) or `exchange` (an exchange offer, `orderId` its order id).
 */
export const paymentReversals = pgTable(
  'payment_reversals',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    orderId: uuid('order_id').notNull(),
    providerRef: text('provider_ref').notNull(),
    /** `refunded` or `disputed`. */
    reason: text('reason').notNull(),
    /** A refund: `final`. A dispute: `open`, then `won` (the tickets admit again) or `lost`. */
    status: text('status').notNull(),
    createdAt: ts('created_at').notNull(),
    closedAt: ts('closed_at'),
  },
  (t) => [
    uniqueIndex('payment_reversals_ref_uq').on(t.providerRef),
    index('payment_reversals_order_idx').on(t.orderId),
  ],
);

/**
 * A holder's request for a refund of one ticket (issue 46, "refund requests"), decided by the organiser: approving voids
 * the ticket (`revokedReason` `refunded`) and records the organiser's reference for the refund made in their own shop;
 * declining records a reason the holder sees. At most one pending request per ticket.
 */
export const refundRequests = pgTable(
  'refund_requests',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    /** The holder who asked (the ticket's holder at the time). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** `pending`, `approved`, `declined` or `withdrawn`. */
    status: text('status').notNull().default('pending'),
    /** The holder's words, or null. */
    reason: text('reason'),
    /** The organiser's reason for a decline (shown to the holder). */
    declineReason: text('decline_reason'),
    /** The organiser's reference for the refund made in their own shop (approve), or null. */
    reference: text('reference'),
    createdAt: ts('created_at').notNull(),
    /** When it was approved, declined or withdrawn. */
    decidedAt: ts('decided_at'),
  },
  (t) => [
    uniqueIndex('refund_requests_pending_uq')
      .on(t.userTicketId)
      .where(sql`status = 'pending'`),
    index('refund_requests_org_status_idx').on(t.organisationId, t.status, t.createdAt),
    index('refund_requests_ticket_idx').on(t.userTicketId),
  ],
);

/**
 * A reported payment that pays nothing as it stands (issue 46): its amount, currency or session is not its order's,
 * it came for an exchange offer that had ended, or a refund or dispute of a payment we cannot find. Flagged for the
 * operator (`GET /v1/admin/payments/mismatched`), who refunds or settles it explicitly.
 */
export const paymentMismatches = pgTable(
  'payment_mismatches',
  {
    id: serial('id').primaryKey(),
    /** The provider event that reported it (deduplication). */
    providerEventId: text('provider_event_id').notNull().unique(),
    /** `resale`, `exchange`, or null when no order of ours was found. */
    kind: text('kind'),
    orderId: uuid('order_id'),
    sessionId: text('session_id'),
    paymentIntentId: text('payment_intent_id'),
    amountCents: integer('amount_cents'),
    currencyCode: text('currency_code'),
    /** `not_paid`, `session`, `amount`, `currency`, `ended` (an exchange offer paid after it ended), `unknown_payment`. */
    reason: text('reason').notNull(),
    createdAt: ts('created_at').notNull(),
    resolvedAt: ts('resolved_at'),
    /** `refunded` or `settled`. */
    resolution: text('resolution'),
  },
  (t) => [
    index('payment_mismatches_open_idx')
      .on(t.createdAt)
      .where(sql`resolved_at is null`),
  ],
);

/**
 * Incoming Stripe events (POST /resell/stripe/webhook) already processed, by event id (deduplication).
 * Named `stripeEvents` in code so it is not mistaken for the organisers' outbound webhooks; the table keeps its
 * old name `webhook_events` (a table rename makes drizzle-kit ask interactively, and other branches regenerate
 * migrations at merge).
 */
export const stripeEvents = pgTable('webhook_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: ts('received_at').notNull().defaultNow(),
});

/**
 * An organisation's webhook subscription (issue 12, `POST /v1/org/webhooks`): outbound deliveries of the listed
 * event types go to `url`, signed with `secret` (`whsec_…`, Standard Webhooks).
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    url: text('url').notNull(),
    /** Event types subscribed to (`ticket.issued`, ...). */
    events: jsonb('events').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.organisationId)],
);

/**
 * Outbound deliveries to organisers' webhook endpoints (table `webhook_deliveries`, name kept: see
 * `stripeEvents`). The durable delivery queue and log: one row per message per endpoint (a redelivery is a new row with the
 * same `messageId`, the `webhook-id` receivers deduplicate on). PENDING rows whose `nextAttemptAt` has come are
 * claimed by the worker with `FOR UPDATE SKIP LOCKED`; the claim pushes `nextAttemptAt` past the delivery's
 * timeout (a lease), so no other instance takes the row while it is in flight.
 */
export const outboundDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    /** `msg_…`, sent as `webhook-id`. */
    messageId: text('message_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The exact JSON body that is signed and sent. */
    payload: text('payload').notNull(),
    /** PENDING, DELIVERED or FAILED (gave up after the maximum attempts). */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    lastAttemptAt: ts('last_attempt_at'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** The first bytes of the last answer's body (never more than 256 characters). */
    lastResponse: text('last_response'),
    deliveredAt: ts('delivered_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id),
  ],
);

/** One HTTP attempt of an outbound delivery (the delivery log's detail; table `webhook_delivery_attempts`). */
export const outboundDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: serial('id').primaryKey(),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => outboundDeliveries.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_delivery_attempts_delivery_idx').on(t.deliveryId)],
);

/**
 * Check-ins an offline door queued and synced (POST /v1/access/sync), one row per queued item id (the
 * door's UUID), so a resent item gets its first answer back. `admittedIds`: the tickets recorded as
 * admitted (event access used at `scannedAt`); `conflicts`: the rest with a reason (already used at
 * another door, moved by gift/resale/swap, listed, invalid pass), kept for the organiser.
 */
export const doorCheckIns = pgTable(
  'door_check_ins',
  {
    id: uuid('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    /** The pass holder the code named; null when the code did not verify. */
    holderId: integer('holder_id').references(() => users.id),
    scannedAt: ts('scanned_at').notNull(),
    syncedAt: ts('synced_at').notNull().defaultNow(),
    admittedIds: integer('admitted_ids').array().notNull(),
    /** `[{ userTicketId, reason }]` (contract access.syncConflictReason). */
    conflicts: jsonb('conflicts').$type<{ userTicketId: number; reason: string }[]>().notNull(),
  },
  (t) => [index('door_check_ins_event_idx').on(t.eventId, t.syncedAt)],
);

/**
 * An organisation's door keys (issue 20 point 4): what its door scanners present in `x-scanner-key`. Stored
 * as SHA-256 hashes like the organisation API keys (shown once); `prefix` (`tpd_` + 8 characters) finds the
 * row. `eventIds` null: every event of the organisation; else only those events. A key works while
 * `revokedAt` is null (DELETE /v1/org/door-keys/{id} sets it, effective at the next request).
 */
export const doorKeys = pgTable(
  'door_keys',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    eventIds: integer('event_ids').array(),
    /** `entry` or `exit` (issue 48): the direction of its scans unless a scan says otherwise. */
    mode: text('mode').$type<'entry' | 'exit'>().notNull().default('entry'),
    /** The zone the door guards (issue 48); null: the event's general doors. */
    zone: text('zone'),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('door_keys_prefix_idx').on(t.prefix), index('door_keys_org_idx').on(t.organisationId)],
);

/**
 * Every scan recorded on a ticket (issue 48, decision 050): entries and exits the entry rules counted, online or
 * synced, with the door's zone (null: none) and the event-local day. What the rules judge the next scan against,
 * what the offline door's snapshot carries and what attendance counts. `user_tickets.event_access_used_at` stays the
 * first entry. Kept as long as the ticket (migration 0033 wrote one entry per ticket used before).
 */
export const ticketScans = pgTable(
  'ticket_scans',
  {
    id: serial('id').primaryKey(),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    at: ts('at').notNull(),
    direction: text('direction').$type<'in' | 'out'>().notNull(),
    zone: text('zone'),
    /** The event-local date of `at`, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    /** null: the platform SCANNER_KEY. */
    doorKeyId: integer('door_key_id').references(() => doorKeys.id),
    offline: boolean('offline').notNull(),
  },
  (t) => [
    index('ticket_scans_ticket_idx').on(t.userTicketId, t.at),
    index('ticket_scans_event_idx').on(t.eventId, t.day),
  ],
);

/**
 * The check-in log (issue 26 point 7): one row per scan the server hears of, online (POST /access/check-in)
 * or synced from an offline door (POST /access/sync, `offline` true): which door key (`doorKeyId`; null: the
 * platform SCANNER_KEY), which device (`deviceId`, the scanner's stable id, or null), when it was scanned
 * (`scannedAt`), the verdict and the tickets it concerned. Kept CHECKIN_LOG_RETENTION_DAYS (housekeeping).
 */
export const checkInLog = pgTable(
  'check_in_log',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    doorKeyId: integer('door_key_id').references(() => doorKeys.id),
    deviceId: text('device_id'),
    /** The pass holder the code named; null when it did not verify. */
    holderId: integer('holder_id').references(() => users.id),
    scannedAt: ts('scanned_at').notNull(),
    recordedAt: ts('recorded_at').notNull().defaultNow(),
    /** `admitted`, `already_used`, `listed`, `returned`, `no_ticket`, `invalid`, `refused` (contract `checkInLogVerdict`). */
    verdict: text('verdict').notNull(),
    offline: boolean('offline').notNull(),
    /** The tickets the scan concerned (admitted, refused or found used/listed). */
    userTicketIds: integer('user_ticket_ids').array().notNull(),
  },
  (t) => [
    index('check_in_log_event_idx').on(t.eventId, t.scannedAt),
    index('check_in_log_scanned_idx').on(t.scannedAt),
    index('check_in_log_tickets_idx').using('gin', t.userTicketIds),
  ],
);

/**
 * The audit trail (issue 25, decision 032): one row per change an organiser or the platform admin made to an
 * organisation, written in the same transaction as the change (a row exists iff the change committed). `at`
 * UTC; `actorKind` `platform_admin` | `api_key` | `console_member` (contract `AUDIT_ACTOR_KINDS`) and
 * `actorId`: the API key's id, the member's account (user) id, null for the platform admin (never a key);
 * `action` a contract `AUDIT_ACTIONS` name; the resource's type and id (the organiser's externalId where it has
 * one); `ip` from Fastify's `request.ip` (honours TRUST_PROXY); `detail` a small JSON without secrets or holder
 * data beyond ids. `actorLabel` (issue 39, migration 0018): who acted as a person reads it, stored when the entry
 * is written (the API key's prefix, the member's e-mail then), so the entry still names its actor after the
 * member's account is deleted and erased (decision 032). Kept AUDIT_RETENTION_DAYS (housekeeping).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id),
    at: ts('at').notNull(),
    actorKind: text('actor_kind').notNull(),
    actorId: integer('actor_id'),
    actorLabel: text('actor_label'),
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    ip: text('ip'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('audit_log_org_idx').on(t.organisationId, t.id),
    index('audit_log_org_action_idx').on(t.organisationId, t.action, t.id),
    index('audit_log_at_idx').on(t.at),
  ],
);

/**
 * A wallet pass issued to one holder for one ticket (issue 22, decision 029): made the first time the holder asks
 * for the Apple `.pkpass` or the Google save link, kept when the ticket moves so the installed pass can be
 * updated and voided. `serialNumber` (`ticket-<userTicketId>-<holderId>`) is the Apple serial and the Google
 * object's suffix; `authenticationToken` authenticates Apple's update web service calls (`ApplePass <token>`);
 * `totpSecret` (hex, 20 bytes) seeds the Google rotating barcode's TOTP; `updatedAt` is the pass's last change
 * (Apple's update tag, unix seconds); `voidedAt` is set once the holder no longer holds the ticket.
 */
export const walletPasses = pgTable(
  'wallet_passes',
  {
    serialNumber: text('serial_number').primaryKey(),
    userTicketId: integer('user_ticket_id')
      .notNull()
      .references(() => userTickets.id),
    holderId: integer('holder_id')
      .notNull()
      .references(() => users.id),
    authenticationToken: text('authentication_token').notNull(),
    totpSecret: text('totp_secret').notNull(),
    /** Set once the pass was added to Google Wallet (its object exists at Google). */
    googleObjectId: text('google_object_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    voidedAt: ts('voided_at'),
  },
  (t) => [index('wallet_passes_ticket_idx').on(t.userTicketId)],
);

/**
 * A device registered for a pass's updates through Apple's pass update web service (register / unregister):
 * its push token receives an APNs push when the pass changes.
 */
export const walletAppleRegistrations = pgTable(
  'wallet_apple_registrations',
  {
    deviceLibraryIdentifier: text('device_library_identifier').notNull(),
    serialNumber: text('serial_number')
      .notNull()
      .references(() => walletPasses.serialNumber),
    pushToken: text('push_token').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceLibraryIdentifier, t.serialNumber] }),
    index('wallet_apple_registrations_serial_idx').on(t.serialNumber),
  ],
);

/**
 * The durable job queue (issue 25, decision 030): background work that must survive a restart or `kill -9` (every
 * e-mail is a `mail` job). A job is written in the transaction of the work that causes it, claimed by one worker
 * with `FOR UPDATE SKIP LOCKED` and leased until `lockedUntil` (a crashed worker's job is claimed again once the
 * lease has passed), deleted when its handler succeeds. A failing job waits `runAt` (backoff) and is tried again
 * until the worker's attempts run out; then `failedAt` and `lastError` keep it for the operator
 * (`GET /v1/admin/jobs/failed`). `attempts` counts claims, so a job that kills its worker is not retried forever.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    /** Which handler runs it, e.g. `mail`. */
    kind: text('kind').notNull(),
    /** What the handler needs (JSON; never rendered output, e.g. a mail's template and params). */
    payload: jsonb('payload').notNull(),
    /** Not before this time (UTC). */
    runAt: ts('run_at').notNull().defaultNow(),
    /** Higher first among due jobs (a sign-in code before an import's 10,000 ticket mails); default 0. */
    priority: integer('priority').notNull().default(0),
    /**
     * Where the job goes, for fairness between destinations (issue 39 item 2): a mail's recipient domain. A worker
     * runs only so many jobs of one destination at once, and destinations that answer slowly share one slot. Null:
     * no destination (the job is never held back by another's).
     */
    destination: text('destination'),
    /** Claims so far (a claim counts before the handler runs). */
    attempts: integer('attempts').notNull().default(0),
    /** The claim's lease: no other worker takes the job before this time. Null: not claimed. */
    lockedUntil: ts('locked_until'),
    lastError: text('last_error'),
    /** Set when the attempts ran out: the job is kept, never claimed again. */
    failedAt: ts('failed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.priority.desc(), t.runAt, t.id)
      .where(sql`${t.failedAt} is null`),
    index('jobs_failed_idx')
      .on(t.failedAt)
      .where(sql`${t.failedAt} is not null`),
  ],
);

/**
 * A CSV ticket import run in the background (issue 44, decision 040): a file over `IMPORT_BACKGROUND_ROWS` rows is
 * kept here with its checked rows and carried out by a `ticket_import` job of the durable queue, in chunks of short
 * transactions; each chunk's transaction also moves `rows_done` and the counts, so a job claimed again after a
 * crash goes on from the last chunk written, never writes one twice.
 */
export const ticketImports = pgTable(
  'ticket_imports',
  {
    /** The `importId` the API answers (random, not guessable; still only the organisation's own is read). */
    id: uuid('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    /** `queued`, `running`, `done` or `failed` (contract `importStatus`). */
    status: text('status').notNull(),
    /** The events the file's ticket types belong to: a second file for one of them is refused while this runs. */
    eventIds: jsonb('event_ids').$type<number[]>().notNull(),
    /** Who sent it (the audit entry's actor): `{ kind, id, ip }`. */
    actor: jsonb('actor').notNull(),
    rowsTotal: integer('rows_total').notNull(),
    /**
     * Rows in the first write transaction (the re-issues, all at once: the rows another person's action could
     * change between the check and the write), set when the check passed; null while not checked.
     */
    headRows: integer('head_rows'),
    /** Rows written so far (whole chunks, in the order of `rows`; the job goes on from here). */
    rowsDone: integer('rows_done').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    /**
     * The file's rows as parsed (`{ row, input }[]`), put in write order once checked (re-issues, then creates, then
     * unchanged rows); emptied once the import is done or failed.
     */
    rows: jsonb('rows'),
    /** A failed import's row errors (the first `IMPORT_MAX_ERRORS`), or null. */
    errors: jsonb('errors'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('ticket_imports_org_status_idx').on(t.organisationId, t.status)],
);

/**
 * An event's exchange queue settings (issue 45, decision 042): set by `PUT /v1/org/events/{externalId}/exchange`.
 * The row is also the event's exchange lock: matching, joining, returning and ending offers take it `FOR UPDATE`
 * first, so the units and entries of the event's types change one transaction at a time.
 */
export const exchangeSettings = pgTable('exchange_settings', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id),
  enabled: boolean('enabled').notNull(),
  /** Minutes an offer stays open for payment (1 to 2880). */
  offerMinutes: integer('offer_minutes').notNull(),
  /** `first_come` or `draw` (contract `exchangeOrder`). */
  order: text('order').notNull(),
  /** With `draw`: entries made before this time are ordered at random at it. */
  drawAt: ts('draw_at'),
  /** The draw's PRNG seed (hex), set when the organiser chose `draw`. */
  drawSeed: text('draw_seed'),
  drawnAt: ts('drawn_at'),
  /** Most tickets one entry may ask for (1 to 6). */
  maxQuantity: integer('max_quantity').notNull(),
  /** The queue closes at this time; null: at the event's transfer cut-off (or its start). */
  closesAt: ts('closes_at'),
  closedAt: ts('closed_at'),
  updatedAt: ts('updated_at').notNull(),
});

/** The order of first-come exchange entries (`exchange_entries.seq`), across every event. */
export const exchangeEntrySeq = pgSequence('exchange_entry_seq');

/**
 * A fan's place in an exchange queue (decision 042): `quantity` tickets of one type, all or nothing. WAITING →
 * OFFERED → PURCHASED; an offer declined or let expire ends as EXPIRED; LEFT or CLOSED otherwise.
 */
export const exchangeEntries = pgTable(
  'exchange_entries',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    quantity: integer('quantity').notNull(),
    /** WAITING, OFFERED, PURCHASED, EXPIRED, LEFT or CLOSED (contract `exchangeEntryStatus`). */
    status: text('status').notNull(),
    /** The entry's order within its type (from `exchange_entry_seq`); null while it waits for the draw. */
    seq: bigint('seq', { mode: 'number' }),
    /** Units given to entries behind this one while it did not fit (the group rule of decision 042). */
    passedOver: integer('passed_over').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    offeredAt: ts('offered_at'),
    expiresAt: ts('expires_at'),
    endedAt: ts('ended_at'),
    /** The offer's checkout (decision 042 "As built (checkout)"): the order id the provider's session names. */
    orderId: uuid('order_id').unique(),
    checkoutSessionId: text('checkout_session_id'),
    /** The provider's payment (Stripe PaymentIntent) that paid the offer, where it said (issue 46). */
    paymentIntentId: text('payment_intent_id').unique(),
    /** Where the fan pays (the provider's page); kept so a second click opens the same session. */
    checkoutUrl: text('checkout_url'),
    /** What the checkout charges: the reserved units' face values, minor units, and their currency. */
    totalCents: integer('total_cents'),
    currencyCode: text('currency_code'),
    paidAt: ts('paid_at'),
  },
  (t) => [
    uniqueIndex('exchange_entries_open_uq')
      .on(t.userId, t.ticketTypeId)
      .where(sql`status in ('WAITING', 'OFFERED')`),
    index('exchange_entries_type_status_seq_idx').on(t.ticketTypeId, t.status, t.seq),
    index('exchange_entries_user_idx').on(t.userId),
  ],
);

/**
 * One ticket on offer in an exchange queue (decision 042): a holder's return (`userTicketId`, the seller
 * `sellerUserId`) or one ticket of an organiser's release (no seller; `organisationId` is paid; no ticket until it is
 * SOLD, then `userTicketId` is the ticket issued to the fan, which a refund of the payment voids). AVAILABLE →
 * HELD (kept for the head group) → RESERVED (in an offer, `entryId`) → SOLD; AVAILABLE or HELD → WITHDRAWN.
 */
export const exchangeUnits = pgTable(
  'exchange_units',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    userTicketId: integer('user_ticket_id').references(() => userTickets.id),
    sellerUserId: integer('seller_user_id').references(() => users.id),
    organisationId: integer('organisation_id').references(() => organisations.id),
    priceCents: integer('price_cents').notNull(),
    currencyCode: text('currency_code').notNull(),
    /** AVAILABLE, HELD, RESERVED, SOLD or WITHDRAWN. */
    status: text('status').notNull(),
    /** The entry the unit is HELD or RESERVED for. */
    entryId: integer('entry_id').references(() => exchangeEntries.id),
    createdAt: ts('created_at').notNull(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    /** A ticket is returned at most once at a time. */
    uniqueIndex('exchange_units_live_ticket_uq')
      .on(t.userTicketId)
      .where(sql`status in ('AVAILABLE', 'HELD', 'RESERVED')`),
    index('exchange_units_type_status_idx').on(t.ticketTypeId, t.status),
    index('exchange_units_entry_idx').on(t.entryId),
  ],
);
