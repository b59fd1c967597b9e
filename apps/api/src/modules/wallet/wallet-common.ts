/**
 * What every part of the wallet service shares (issue 22, decision 029): its dependencies, the constants and the
 * pure helpers of a pass (serial number, reveal time, labels in each language, colours).
 */
import type { WalletConfig } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Lang } from '../../lib/lang.js';
import type { GoogleWalletApi, ServiceAccountKey } from '../../providers/google-wallet/google-wallet.provider.js';
import type { ApnsClient } from '../../providers/apns/apns.provider.js';
import { LOCALES } from '@tp/contract';
import type { EntryRules } from '@tp/contract/entry-rules';
import { formatLocalDays } from '@tp/contract/format';
import { text as catalogueText } from '../../lib/i18n.js';

/** The wallet service's dependencies (each part takes them). */
export interface WalletDeps {
  database: Database;
  config: WalletConfig;
  /** The 32-byte Ed25519 seed that signs pass codes (config `passSigningKey`). */
  signingKey: Uint8Array;
  /** Public URL of this service (the save JWT's `origins`). */
  publicUrl: string;
  /** The Google Wallet REST API (a local fake in test mode) and the service account key; null when not configured. */
  google: { api: GoogleWalletApi; key: ServiceAccountKey } | null;
  /** APNs (a local fake in test mode); null when Apple is not configured. */
  apns: ApnsClient | null;
  now: () => Date;
  /** The pass-signing threads' module (`AppDeps.passSigningWorker`); default the one beside pass-signer.ts. */
  passSigningWorker?: string;
}

/** Seconds before an event's start its wallet pass is issued when the event sets no `passRevealAt`. */
export const WALLET_DEFAULT_REVEAL_SECONDS = 24 * 3600;
/** Google's save link prefix: the signed JWT follows. */
export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';
/** Path of Apple's pass update web service under the API (the pass's `webServiceURL` ends with it). */
export const APPLE_WEB_SERVICE_PATH = '/v1/wallet/apple';

/** A pass's serial number (Apple) and Google object suffix: one per ticket and holder. */
export const walletSerialNumber = (userTicketId: number, holderId: number) => `ticket-${userTicketId}-${holderId}`;

/**
 * The fields an Apple pass labels, and the status a returned ticket's or a cancelled event's pass shows (issue 46) (their words: `wallet.pass_labels.*`
 * in the API's catalogues; issue 40, N1; issue 45); `admits` labels the days and zones of a type with entry rules
 * (issue 48), on Google's pass too.
 */
const PASS_FIELDS = [
  'event',
  'ticket',
  'holder',
  'starts',
  'venue',
  'address',
  'status',
  'returned',
  'cancelled',
  'admits',
] as const;

/** The labels an Apple pass shows in `lang`, from the API's catalogues (`wallet.pass_labels`). */
const labelsIn = (lang: Lang) =>
  Object.fromEntries(PASS_FIELDS.map((f) => [f, catalogueText(lang, `wallet.pass_labels.${f}`)])) as Record<
    (typeof PASS_FIELDS)[number],
    string
  >;

/**
 * The pass's labels for a holder whose account language is `lang`, and its `.lproj` strings: pass.json writes the
 * labels in the holder's language (what Wallet shows on a device in a language the pass has no `.lproj` for), and
 * each language's `pass.strings` maps those labels to its own words, so an English or Spanish device reads its own.
 */
export function passLabels(lang: Lang) {
  const labels = labelsIn(lang);
  const localizations = Object.fromEntries(
    LOCALES.map((l) => {
      const theirs = labelsIn(l);
      return [l, Object.fromEntries(PASS_FIELDS.map((f) => [labels[f], theirs[f]]))];
    }),
  );
  return { labels, localizations };
}

/** Non-empty parts joined by ", " (an event without a street address is not ", Sydney"). */
export const joined = (...parts: (string | null | undefined)[]) => parts.filter((p) => p?.trim()).join(', ');

/** The pass's colours when the organisation has no brand colour. */
export const DEFAULT_COLOR = '#1f2937';

/** Whole seconds since the epoch (UTC). */
export const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** When a ticket's wallet code starts admitting: `passRevealAt`, else 24 h before the event starts. */
export function walletRevealAt(event: { passRevealAt: Date | null; startsAt: Date }): Date {
  return event.passRevealAt ?? new Date(event.startsAt.getTime() - WALLET_DEFAULT_REVEAL_SECONDS * 1000);
}

/** `rgb(r, g, b)` of a `#rrggbb` colour (the form pass.json takes). */
export function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * A Google Wallet LocalizedString tagged with the holder's language (issue 40; it was always `en`). The values are
 * the organiser's own words (event, venue, ticket type), which have no translations: no `translatedValues`.
 */
export const text = (value: string, lang: Lang) => ({ defaultValue: { language: lang, value } });

/**
 * What a ticket of a type with entry rules admits (issue 48), as its pass says it in `lang`: the label
 * (`wallet.pass_labels.admits`) and the days ("Sat 11–Sun 12", "sáb 11–dom 12") and zones ("VIP, Backstage"), joined
 * by " · "; null for a type with neither (any day, any zone).
 */
export function entryField(rules: EntryRules | null, lang: Lang): { label: string; value: string } | null {
  const parts = [rules?.days && formatLocalDays(rules.days, lang), rules?.zones?.join(', ')].filter(Boolean);
  return parts.length ? { label: labelsIn(lang).admits, value: parts.join(' · ') } : null;
}
