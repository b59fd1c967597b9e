/**
 * The brand and panel links of an e-mail (issue 23): an organisation's name, logo and colour when the ticket or
 * panel is an organisation's, the product's otherwise; every link that opens the panel carries the organisation
 * (`?org=<slug>`), so it opens the organisation's panel (decision 015).
 */
import { accentPalette } from '../../modules/branding/brand-colors.js';
import type { MailBrand } from './layout.js';
import type { Locale } from '@tp/contract';
import { LOGO_CID } from './mail-logo.js';
import { pickLang } from '../../lib/lang.js';
import type { HolderTicket } from './ticket-holders.repository.js';

/** The product's accent (the panel's light theme, apps/panel/src/app/styles.css). */
const PRODUCT_ACCENT = '#3b5bfd';

/** The organisation fields an e-mail's brand comes from (a row of `organisations`). */
export interface MailOrganisation {
  slug: string;
  name: string;
  logoUrl: string | null;
  primaryColor: string | null;
}

/**
 * The brand of an e-mail: the organisation's (its colour moved to 4.5:1 on white as the panel does; its logo when
 * `hasLogo`, the mail then carrying the PNG as its inline part `LOGO_CID`, never a remote URL: issue 41 point 9) or,
 * with `org` null, the product's name and accent.
 */
export function mailBrand(
  org: MailOrganisation | null,
  product: { productName: string; publicUrl: string },
  hasLogo = false,
): MailBrand {
  const palette =
    accentPalette(org?.primaryColor ?? PRODUCT_ACCENT, 'light') ?? accentPalette(PRODUCT_ACCENT, 'light')!;
  return {
    name: org?.name ?? product.productName,
    logoCid: org !== null && hasLogo ? LOGO_CID : null,
    accent: palette.accent,
    accentText: palette.accentText,
    productName: product.productName,
    organisation: org !== null,
  };
}

/**
 * A link that opens the panel: `${publicUrl}/${lang}/?org=<slug>&…` with the organisation when there is one
 * (spec section 2, Routing: PANEL_TAB and its companions as query parameters).
 */
export function panelLink(
  publicUrl: string,
  lang: Locale,
  orgSlug: string | null,
  params: Record<string, string>,
): string {
  const query = new URLSearchParams();
  if (orgSlug) query.set('org', orgSlug);
  for (const [k, v] of Object.entries(params)) query.set(k, v);
  return `${publicUrl}/${lang}/?${query.toString()}`;
}

/**
 * The wallet links of a ticket e-mail (issue 22): the wallets the operator configured and the panel's page of the
 * ticket (`PANEL_TAB=TICKET&USER_TICKET_ID=…`), where the signed-in holder adds it; undefined when neither wallet
 * is configured.
 */
export function walletLinks(
  config: { publicUrl: string; wallet: { apple: unknown; google: unknown } },
  lang: Locale,
  orgSlug: string | null,
  userTicketId: number,
): { apple: boolean; google: boolean; link: string } | undefined {
  const apple = config.wallet.apple !== null;
  const google = config.wallet.google !== null;
  if (!apple && !google) return undefined;
  const link = panelLink(config.publicUrl, lang, orgSlug, {
    PANEL_TAB: 'TICKET',
    USER_TICKET_ID: String(userTicketId),
  });
  return { apple, google, link };
}

/**
 * The part of a ticket e-mail every holder mail shares: to the holder in their language, under the organisation's
 * brand, the ticket's facts (its calendar id `ticket-<userTicketId>`) and a link to the panel's `tab` (spec section 2,
 * PANEL_TAB) of the organisation's panel.
 */
export function holderMail(r: HolderTicket, publicUrl: string, tab: 'MY_TICKET' | 'QR') {
  const lang: Locale = pickLang(r.locale);
  return {
    to: r.email,
    locale: lang,
    org: r.organisation,
    ticket: { event: r.event, ticketName: r.ticketName, calendarId: `ticket-${r.userTicketId}` },
    link: panelLink(publicUrl, lang, r.organisation.slug, { PANEL_TAB: tab }),
  };
}
