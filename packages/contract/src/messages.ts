/**
 * Server message keys (spec section 8) and the HTTP status each one answers with.
 *
 * Every API error body is `{ "message": key }` (plus `sessionId` or `fields` where named);
 * the panel translates the key through its i18n catalogues, so every key here has an
 * entry in `apps/panel/src/locales/{en,es}.json`.
 */
const PANEL_MESSAGE_STATUS = {
  // generic
  request_failed: 500,
  'api.internal_error': 500,
  'api.invalid_request_body': 400,
  'api.not_found': 404,
  /** An Idempotency-Key reused with other request parameters (as Stripe's API answers). */
  'api.idempotency_key_reused': 422,
  'api.too_many_requests': 429,
  'api.unauthorized': 401,
  /** The database (or another dependency) is unreachable for a moment; sent with Retry-After. */
  'api.service_unavailable': 503,
  /** The instance is too busy to take the request now (load shedding, decision 039); sent with Retry-After. */
  'api.busy': 503,
  // auth (spec section 8, Auth)
  'api.auth.wrong_otp': 400,
  'api.auth.otp_expired': 400,
  'api.auth.otp_attempts_exceeded': 400,
  'api.auth.login_session_failed': 400,
  'api.auth.token_not_authorized': 401,
  'api.auth.internal_error': 500,
  'api.auth.resend_too_soon': 429,
  'api.auth.cross_site_request': 403,
  /** A route that moves a ticket or money wants a proof of presence from the last STEP_UP_MAX_AGE_SECONDS (issue 47). */
  'api.auth.step_up_required': 403,
  /** POST /auth/step-up/verify with no open step-up code in this session: ask for one first. */
  'api.auth.step_up_no_code': 400,
  /**
   * A passkey's answer that does not check out (issue 47): an unknown, used or expired challenge, another origin, a
   * bad signature, a cloned authenticator's counter, a passkey of another account. The e-mail code always works.
   */
  'api.auth.passkey_failed': 400,
  /** No such passkey on this account (or none at all, for a passkey step-up). */
  'api.auth.passkey_not_found': 404,
  /** The account holds PASSKEYS_MAX passkeys already: remove one first. */
  'api.auth.passkey_limit': 409,
  // profile
  'api.profile.internal_error': 500,
  'api.profile.email_or_phone_in_use': 409,
  'api.profile.username_taken': 409,
  'api.profile.username_empty': 400,
  'api.profile.avatar_invalid': 400,
  'api.profile.avatar_too_large': 413,
  'api.profile.avatar_too_many_pixels': 422,
  'api.profile.avatar_svg_unsupported': 422,
  'api.profile.avatar_timeout': 422,
  'api.profile.avatar_busy': 429,
  /** The holder's previous avatar upload is still being processed: one at a time per holder (issue 39). */
  'api.profile.avatar_upload_in_progress': 409,
  // tickets
  'api.ticket.not_found': 404,
  // door check-in (scanner page)
  'api.access.scanner_unauthorized': 401,
  'api.access.invalid_code': 400,
  /** A Google Wallet rotating barcode whose TOTP is not fresh (a screenshot, or the phone's clock far off). */
  'api.access.stale_code': 400,
  'api.access.event_not_found': 404,
  'api.access.sync_bad_time': 400,
  'api.access.invalid_device_key': 400,
  /** A door key (issue 20) used for an event outside its organisation or its list of events. */
  'api.access.not_for_this_event': 403,
  /** The holder's pass is not shown yet: no ticket's event has reached its `passRevealAt` (issue 21); with `revealAt`. */
  'api.access.pass_not_yet_available': 409,
  /** A wallet pass (issue 22) before the event's `passRevealAt` (or 24 h before it starts); with `revealAt`. */
  'api.wallet.not_yet_available': 409,
  /** A wallet pass for an event that has ended (its code would never admit). */
  'api.wallet.event_ended': 409,
  /** The operator has not configured this wallet (Apple or Google). */
  'api.wallet.not_configured': 404,
  /** Too many Apple passes are being signed right now (issue 39), or one ran past its deadline; with Retry-After. */
  'api.wallet.busy': 503,
  /** Gift, resale and swap are closed: the event's `transfersCloseAt` has passed (issue 21). */
  'api.ticket.transfers_closed': 409,
  // gift (spec section 8, Gift verify / Gift)
  'gift_tickets.cannot_be_gifted': 409,
  'gift_tickets.not_authorized_to_verify': 403,
  'gift_tickets.internal_error_verify': 500,
  'gift_tickets.not_allowed': 403,
  'gift_tickets.internal_error': 500,
  'gift_tickets.receiver_not_found': 404,
  'gift_tickets.cannot_gift_to_self': 400,
  // benefits
  'api.unlock.validation_error': 400,
  'api.unlock.invalid_benefit_id': 404,
  'api.unlock.internal_error': 500,
  'api.unlock.already_claimed': 409,
  // resale
  'api.resell.create.already_listed': 409,
  'api.resell.create.no_stripe': 403,
  'api.resell.create.internal_error': 500,
  'api.resell.not_supported_country': 400,
  'api.resell.create.not_resellable': 409,
  'api.resell.create.quantity_exceeded': 400,
  'api.resell.listing_not_found': 404,
  'api.resell.listing_unavailable': 409,
  'api.resell.order_not_found': 404,
  'api.resell.webhook_invalid': 400,
  'api.resell.redeem.invalid_code': 404,
  'api.resell.redeem.already_redeemed': 409,
  'api.resell.calculation.ticket_not_found': 404,
  invalid_prices: 400,
  // swap
  'api.start_swap_failed': 409,
  'api.swap.not_swappable': 409,
  'api.swap.quantity_exceeded': 400,
  'api.swap.out_of_stock': 409,
  'api.swap.pair_not_found': 404,
  'api.swap.not_found': 404,
  'api.swap.already_confirmed': 409,
  'api.swap.expired': 409,
  'api.swap.payment_required': 402,
  // account rights (issue 13)
  'api.account.has_upcoming_tickets': 409,
  'api.account.has_listings': 409,
  /** The account is the only owner of an organisation (issue 39): another owner must be added first. */
  'api.account.last_owner': 409,
  // the panel per organiser (issue 12): an unknown slug in GET /organisations/{slug} or X-Organisation
  'api.organisation.not_found': 404,
  // the exchange queue (issue 45, decision 042)
  /** The event has no exchange queue turned on (or no such event of the organisation). */
  'api.exchange.not_found': 404,
  /** The queue is closed (its closesAt passed) or turned off: no join, no return. */
  'api.exchange.closed': 409,
  'api.exchange.join.type_not_found': 404,
  /** More tickets than the event's maxQuantity. */
  'api.exchange.join.quantity_exceeded': 400,
  /** One entry per account per ticket type while it waits or is offered. */
  'api.exchange.join.already_in_queue': 409,
  /** No such entry of mine. */
  'api.exchange.entry_not_found': 404,
  /** The entry is no longer waiting nor offered (leave). */
  'api.exchange.leave.not_open': 409,
  /** The entry has no open offer (decline). */
  'api.exchange.decline.not_offered': 409,
  /** The entry has no open offer to pay (it ended, or was paid already). */
  'api.exchange.checkout.not_offered': 409,
  /** Not a ticket I hold that may change hands (revoked, used, another event's queue closed...). */
  'api.exchange.return.not_returnable': 409,
  /** No ticket of mine with this id (the return's state). */
  'api.exchange.return.ticket_not_found': 404,
  /** A return is paid to the seller's verified payout account, as a resale is. */
  'api.exchange.return.no_payout_account': 403,
  /** The ticket has an open resale listing: one sale at a time. */
  'api.exchange.return.listed': 409,
  'api.exchange.return.already_returned': 409,
  /** No open return of this ticket of mine. */
  'api.exchange.withdraw.not_found': 404,
  /** An offer for the ticket is open: it can be withdrawn once the offer ends. */
  'api.exchange.withdraw.reserved': 409,
  // refund requests (issue 46)
  /** No ticket of mine with this id. */
  'api.refund.ticket_not_found': 404,
  /** The event's refund policy takes no request now (none, past its date, not cancelled or not rescheduled). */
  'api.refund.not_allowed': 409,
  /** The ticket was checked in, is listed for resale, is in the exchange queue (returned or offered), or is void. */
  'api.refund.not_eligible': 409,
  /** A request for this ticket is already waiting for the organiser. */
  'api.refund.already_requested': 409,
  /** No pending request of mine for this ticket (withdraw). */
  'api.refund.not_found': 404,
} as const;

/**
 * Keys only the organiser side answers (`/v1/admin/*`, `/v1/org/*`, issue 12): read by integrators' scripts,
 * never by the panel, so they are not in the panel's catalogues (which every LOGIN screen downloads).
 */
const ORGANISER_MESSAGE_STATUS = {
  /** No refund request of your organisation has this id (issue 46). */
  'api.org.refund_request_not_found': 404,
  /** The request was already approved, declined or withdrawn. */
  'api.org.refund_request_decided': 409,
  'api.org.organisation_not_found': 404,
  'api.org.slug_taken': 409,
  'api.conflict': 409,
  'api.org.api_key_not_found': 404,
  'api.org.event_not_found': 404,
  /** Issue 46: the event is cancelled; it cannot be changed, and its passes admit no one (a door's check-in). */
  'api.org.event_cancelled': 409,
  /** The event has ended (its `endsAt` passed): it can no longer be cancelled, and nobody is refunded for it. */
  'api.org.event_ended': 409,
  'api.access.event_cancelled': 409,
  'api.org.ticket_type_not_found': 404,
  'api.org.ticket_not_found': 404,
  /** A ticket type cannot move to another event once created. */
  'api.org.ticket_type_event_locked': 409,
  /** A ticket cannot change type; revoke it and issue another. */
  'api.org.ticket_type_locked': 409,
  /** A revoked ticket is final: no PUT changes it. */
  'api.org.ticket_revoked': 409,
  /** Listed for resale, or sold and awaiting its buyer's redeem: the holder's move comes first. */
  'api.org.ticket_in_resale': 409,
  /** Event access already used: the ticket cannot change hands. */
  'api.org.ticket_used': 409,
  /** The holder gifted or sold the ticket since it was issued: the organiser cannot re-issue it to someone else. */
  'api.org.ticket_moved': 409,
  /** Re-send of the ticket e-mail: the ticket is revoked or held under a resale code, so no one holds it. */
  'api.org.ticket_not_held': 409,
  /** An externalId appears twice in one import. */
  'api.org.import.duplicate_external_id': 422,
  'api.org.import.invalid_rows': 422,
  'api.org.import.invalid_csv': 400,
  'api.org.import.missing_header': 400,
  /** The file is neither UTF-8 nor UTF-16 (the answer names what was found in `encoding`: `utf-32le`, `utf-32be`, or `unknown` for bytes that are not UTF-8, e.g. a Windows-1252 export). */
  'api.org.import.unsupported_encoding': 400,
  'api.org.import.too_many_rows': 413,
  'api.org.import.too_large': 413,
  /** The import's body is not sent as `text/csv` (a form upload, JSON, no Content-Type). */
  'api.org.import.not_csv': 415,
  /** No import with this id in the organisation (issue 44: another organisation's import is not found either). */
  'api.org.import.not_found': 404,
  /** An import of the same event is queued or running (issue 44): send the file again once it is done. */
  'api.org.import.in_progress': 409,
  /** No such webhook endpoint in this organisation. */
  'api.org.webhook_not_found': 404,
  /** No such delivery of this webhook endpoint. */
  'api.org.webhook_delivery_not_found': 404,
  /** The webhook URL is refused: not https (http only for loopback outside production), or a private address. */
  'api.org.webhook_url_not_allowed': 422,
  /** The organisation has as many webhook endpoints as it may (WEBHOOK_ENDPOINTS_PER_ORGANISATION): delete one first. */
  'api.org.webhook_limit_reached': 409,
  /** No such door key of this organisation (issue 20). */
  'api.org.door_key_not_found': 404,
  /** A list's `cursor` that no page of this list answered (issue 21). */
  'api.org.invalid_cursor': 400,
  /** A ticket type's swap target is the type itself or of another event (issue 21). */
  'api.org.swap_target_invalid': 422,
  /** The member's role does not open this area (issue 21, contract `ORG_AREA_ROLES`). */
  'api.org.role_forbidden': 403,
  /** The signed-in account is not a member of this organisation (POST /v1/console/session). */
  'api.org.not_a_member': 403,
  /** No such member of this organisation. */
  'api.org.member_not_found': 404,
  /** That e-mail is already a member of this organisation. */
  'api.org.member_exists': 409,
  /** An organisation keeps at least one owner: the last one cannot be removed. */
  'api.org.last_owner': 409,
  /** No failed job with this id (POST /v1/admin/jobs/{id}/retry, issue 25). */
  'api.admin.job_not_found': 404,
  /** No flagged payment with this id (`/v1/admin/payments/mismatched/{id}/...`, issue 46). */
  'api.admin.payment_mismatch_not_found': 404,
  /** The flagged payment was refunded or settled already: it is resolved once. */
  'api.admin.payment_mismatch_resolved': 409,
  /** A refund of a flagged payment the provider did not name (no PaymentIntent id): refund it in Stripe's dashboard. */
  'api.admin.payment_mismatch_no_payment': 409,
  /** Settling a flagged payment whose order is no longer payable (paid, ended, failed) or unknown. */
  'api.admin.payment_mismatch_not_payable': 409,
  /** A release into an exchange queue that is not turned on, or closed (issue 45). */
  'api.org.exchange.not_open': 409,
  /** A release above the ticket type's face value (issue 45: the exchange sells at face value at most). */
  'api.org.exchange.price_above_face_value': 422,
  /** A release before the organisation's payout account is verified (issue 45: releases are paid to it). */
  'api.org.exchange.no_payout_account': 403,
} as const;

/**
 * Keys of the reminder e-mail's unsubscribe link (issue 41 point 9, `/v1/reminders/unsubscribe/{token}`): read by
 * mail clients' one-click `POST` (RFC 8058) and shown in words by its own page, never by the panel.
 */
const MAIL_LINK_MESSAGE_STATUS = {
  /** The link's token is malformed, forged, expired, or for an account that no longer exists. */
  'api.reminders.unsubscribe_invalid': 400,
} as const;

/** Every message key and the HTTP status it answers with (the one status map of `AppError`). */
export const MESSAGE_STATUS = {
  ...PANEL_MESSAGE_STATUS,
  ...ORGANISER_MESSAGE_STATUS,
  ...MAIL_LINK_MESSAGE_STATUS,
} as const;

/** A message key known to the API (and, but for the organiser keys, the panel). */
export type MessageKey = keyof typeof MESSAGE_STATUS;

/** Every message key the panel may receive, for catalogue completeness tests. */
export const MESSAGE_KEYS = Object.keys(PANEL_MESSAGE_STATUS) as MessageKey[];

/**
 * The English sentence the organiser API sends as `detail` beside each of its message keys (issue 21): what is
 * wrong and with which field, id or column. Integrators log it; the key stays the thing to branch on.
 */
export const ORGANISER_DETAILS: Partial<Record<MessageKey, string>> = {
  'api.unauthorized': 'The Authorization header must be "Bearer <API key>" with a live key, or a console token.',
  'api.too_many_requests': 'Too many requests: wait the Retry-After seconds and try again.',
  'api.busy': 'The service is too busy to take this request now: wait the Retry-After seconds and try again.',
  'api.not_found': 'No such route.',
  'api.auth.step_up_required':
    'A console token needs a fresh proof of presence for this (POST /v1/auth/step-up with the holder token, then verify); an API key never does.',
  'api.invalid_request_body': 'The request is not valid: see `fields`.',
  'api.conflict': 'Another request changed the same record at the same time: retry.',
  'api.org.organisation_not_found': 'No organisation with this id.',
  'api.org.slug_taken': 'The slug is taken by another organisation.',
  'api.org.api_key_not_found': 'No API key with this id in this organisation.',
  'api.org.event_not_found': 'No event of your organisation has this externalId (path, `event` or eventExternalId).',
  'api.org.event_cancelled': 'The event is cancelled: it cannot be changed, and no ticket of it admits or moves.',
  'api.org.event_ended': 'The event has ended (its endsAt passed): it can no longer be cancelled.',
  'api.access.event_cancelled': 'The organiser cancelled this event: no pass admits to it.',
  'api.org.refund_request_not_found': 'No refund request of your organisation has this id.',
  'api.org.refund_request_decided': 'The refund request was already approved, declined or withdrawn.',
  'api.org.ticket_type_not_found':
    'No ticket type of your organisation has this ticketTypeExternalId (or swapTargets[].ticketTypeExternalId).',
  'api.org.ticket_not_found': 'No ticket of your organisation has this externalId.',
  'api.org.ticket_type_event_locked': 'eventExternalId: this ticket type already belongs to another event.',
  'api.org.ticket_type_locked': 'ticketTypeExternalId: a ticket keeps its type; revoke it and issue another.',
  'api.org.ticket_revoked': 'The ticket was revoked: it cannot be issued again, nor its refund request approved.',
  'api.org.ticket_in_resale':
    'The ticket is listed for resale, returned to an exchange queue, or sold and awaiting its buyer: it moves by that sale until the holder takes it back.',
  'api.org.ticket_used': 'holderEmail: the ticket was used at the door and keeps its holder.',
  'api.org.ticket_moved': 'holderEmail: the holder gifted, resold or swapped the ticket since it was issued.',
  'api.org.ticket_not_held':
    'The ticket is revoked or held under a resale code awaiting its buyer: there is no holder to e-mail.',
  'api.org.import.duplicate_external_id': 'Column externalId: the same id appears on an earlier row.',
  'api.org.import.invalid_rows': 'Some rows are not valid: see `errors` (row, column, message); nothing was written.',
  'api.org.import.invalid_csv': 'The body is not readable CSV.',
  'api.org.import.missing_header':
    'The first row must name the columns externalId, ticketTypeExternalId and holderEmail.',
  'api.org.import.unsupported_encoding': 'The file must be UTF-8 or UTF-16 text: see `encoding`.',
  'api.org.import.too_many_rows': 'The file has more data rows than one import takes (50,000: see detail).',
  'api.org.import.too_large': 'The file is larger than one import takes (10 MiB).',
  'api.org.import.not_csv':
    'Send the CSV file itself as the body with `Content-Type: text/csv` (not a form upload, not JSON).',
  'api.org.import.not_found': 'No import with this id in your organisation.',
  'api.org.import.in_progress':
    'An import of the same event is still running: send this file again once it is done (see `importId`).',
  'api.org.webhook_not_found': 'No webhook endpoint with this id in your organisation.',
  'api.org.webhook_delivery_not_found': 'No delivery with this id for this webhook endpoint.',
  'api.org.webhook_url_not_allowed': 'url: must be https and not a private or loopback address.',
  'api.org.webhook_limit_reached':
    'Your organisation has as many webhook endpoints as it may have (10 unless the operator set another limit): delete one before adding another.',
  'api.org.door_key_not_found': 'No door key with this id in your organisation.',
  'api.org.invalid_cursor': 'cursor: pass the nextCursor of the previous page as it was given.',
  'api.org.swap_target_invalid': 'swapTargets[].ticketTypeExternalId: a target must be another type of the same event.',
  'api.org.role_forbidden':
    'Your member role does not allow this: owners do everything, staff events, tickets, imports and webhooks, door only door keys.',
  'api.org.not_a_member': 'organisationId: your account is not a member of this organisation.',
  'api.org.member_not_found': 'No member with this id in your organisation.',
  'api.org.member_exists': 'email: this account is already a member of your organisation.',
  'api.org.last_owner': 'The organisation must keep an owner: add another owner before removing this one.',
  'api.admin.job_not_found': 'No failed job with this id (it may have been retried or never failed).',
  'api.admin.payment_mismatch_not_found': 'No flagged payment with this id.',
  'api.admin.payment_mismatch_resolved': 'This flagged payment was refunded or settled already.',
  'api.admin.payment_mismatch_no_payment':
    'The provider did not name the payment (no PaymentIntent id): refund it in the provider’s dashboard instead.',
  'api.admin.payment_mismatch_not_payable':
    'The order of this payment cannot be paid any more (paid, ended or failed), or there is no order: refund it instead.',
  'api.org.exchange.not_open':
    'The exchange queue of this event is not turned on, or it closed: PUT /v1/org/events/{externalId}/exchange first.',
  'api.org.exchange.price_above_face_value': 'priceCents: at most the ticket type’s face value (its priceCents).',
  'api.org.exchange.no_payout_account':
    'Released tickets are paid to your payout account: set it up first (POST /v1/org/payout-account) and wait until it is verified.',
};
