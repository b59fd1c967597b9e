/** Business constants of spec section 9 shared by API and panel. */
export const OTP_LENGTH = 6;
export const USERNAME_SEARCH_DEBOUNCE_MS = 500;
export const TOAST_AUTO_CLOSE_MS = 5000;
export const NO_PAYOUT_TOAST_MS = 30000;
/** Query cache keep time (spec 9: 60 seconds). */
export const CACHE_GC_TIME_MS = 60_000;
export const RESALE_PRICE_TOLERANCE = 0.001;
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** Whether `value` is one of the panel's languages (`LOCALES`). */
export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/** The other of the two languages: what a page's language switch links to. */
export function otherLocale(locale: Locale): Locale {
  return locale === 'es' ? 'en' : 'es';
}

/** PANEL_TAB values (spec section 2, Routing). */
export const PANEL_TABS = [
  'OTP',
  'LOGIN',
  'PERSONAL_DATA',
  'QR',
  'REDEEM',
  'RESELL',
  'SWAP',
  'SETTINGS',
  'MY_TICKET',
  'TICKET',
  'GIFT',
] as const;
export type PanelTab = (typeof PANEL_TABS)[number];
/** PANEL_OVERLAY_TAB values. */
export const PANEL_OVERLAY_TABS = ['HUB'] as const;
export type PanelOverlayTab = (typeof PANEL_OVERLAY_TABS)[number];

/** Cache tags of spec section 4; each is the root of TanStack Query keys. */
export const CACHE_TAGS = [
  'USER',
  'TICKETS',
  'TICKETS_SWAP',
  'SWAPPABLE_TICKETS',
  'LISTED_TICKETS',
  'TICKETS_AVAILABLE_FOR_LISTING',
  'SINGLE_TICKET',
] as const;
export type CacheTag = (typeof CACHE_TAGS)[number];

/** Ticket listing status filter used by My tickets. */
export const TICKET_STATUSES = ['UPCOMING', 'PAST'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Benefit type of an unlockable digital benefit (spec section 2, Ticket page). */
export const DIGITAL_BENEFIT_TYPE = 'benefits.digital';

/** SETTINGS_TAB value that opens the payout tab (spec section 2 Routing). */
export const SETTINGS_TAB_PAYOUT = 'ACCOUNT_VERIFICATION';

/** Username search (GET /mobile/users/?username=): shorter queries answer an empty list (issue 13, privacy). */
export const USERNAME_SEARCH_MIN_LENGTH = 3;

/**
 * What a step-up proves presence for (issue 47): each route that moves a ticket or money names one, the 403
 * `api.auth.step_up_required` answer carries it, and the step-up e-mail says it ("… to gift a ticket"). The last two
 * are the console's (decision 048, "The console gap"): an owner's new API key or member, asked of a console token.
 */
export const STEP_UP_ACTIONS = [
  'gift',
  'resale_listing',
  'exchange_return',
  'swap',
  'payout_account',
  'account_deletion',
  'sign_out_everywhere',
  'passkey_add',
  'passkey_removal',
  'api_key',
  'member_add',
] as const;
export type StepUpAction = (typeof STEP_UP_ACTIONS)[number];

/** Passkeys one account may hold (issue 47, decision 049): a phone, a laptop, a key or two, with room to spare. */
export const PASSKEYS_MAX = 20;
