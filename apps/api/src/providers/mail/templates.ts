/**
 * Transactional e-mail texts in en and es (issue 23): what each e-mail says, laid out by `layout.ts` (MJML, one
 * HTML and text part per mail) under the organisation's brand (`brand.ts`). Ticket e-mails name the event, its
 * date and time in the event's time zone, the venue with a map link and the ticket type, and carry the event as
 * an `.ics` calendar file (`calendar.ts`).
 */
import type { OrgRole } from '@tp/contract';
import { formatCents, formatEventAt, formatEventDateTime, formatMoney } from '@tp/contract/format';
import { eventPlace } from '@tp/contract/place';
import type { Locale, StepUpAction } from '@tp/contract';
import { text, texts } from '../../lib/i18n.js';
import { calendarFile, ICS_CANCEL_CONTENT_TYPE, ICS_CONTENT_TYPE } from './calendar.js';
import { renderMail, type MailBrand, type MailFact, type RenderedMail } from './layout.js';

/** One line of text: control and format characters (newlines, tabs, bidi overrides) become one space. */
const oneLine = (s: string) => s.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\s]+/gu, ' ').trim();

/** Longest name shown in an e-mail, characters. */
const MAIL_NAME_MAX = 60;

/**
 * A person's name as it may appear in an e-mail (issue 14: names with newlines and URLs were a phishing
 * channel): one line of plain text (`oneLine`), at most MAIL_NAME_MAX characters, that mail clients do
 * not turn into a link. `://` becomes `[:]//`, and a dot or `@` between letters or digits is bracketed
 * (`evil[.]example`, `a[@]b`), the "defanging" security mail uses for addresses it must not make
 * clickable. Used in the subject, the text part and (escaped) the HTML part alike.
 */
export function mailName(name: string): string {
  const chars = Array.from(oneLine(name));
  const short = chars.length > MAIL_NAME_MAX ? `${chars.slice(0, MAIL_NAME_MAX - 1).join('')}…` : chars.join('');
  return short.replace(/:\/\//g, '[:]//').replace(/(?<=[\p{L}\p{N}])([.@])(?=[\p{L}\p{N}])/gu, '[$1]');
}

/** An event as a ticket e-mail shows it (a row of `events`). */
export interface MailEvent {
  name: string;
  startsAt: Date;
  endsAt: Date;
  /** IANA zone of the event: its date and time are written there. */
  timeZone: string;
  venue: string;
  address1: string;
  city: string;
  latitude: number | null;
  longitude: number | null;
}

/** A mail's file attachment (the mail provider's shape). */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** A ticket e-mail: the rendered mail and its `.ics` calendar file. */
export type TicketMail = RenderedMail & { attachments: MailAttachment[] };

/** What a ticket e-mail is about: the event, the ticket type and a stable id for the calendar entry. */
export interface MailTicket {
  event: MailEvent;
  ticketName: string;
  /** The calendar entry's UID: `ticket-<userTicketId>` or `order-<orderId>`, unique per holder's entry. */
  calendarId: string;
  /**
   * Wallet passes (issue 22, decision 029): which wallets the operator configured and the panel's page of this
   * ticket, where the holder signed in adds it (a pass needs the holder's token, so the mail links to the page).
   */
  wallet?: { apple: boolean; google: boolean; link: string };
}

/** The small print: who sent the e-mail (the product, for the organisation when branded). */
function footer(locale: Locale, brand: MailBrand): string {
  return brand.organisation
    ? text(locale, 'mail.footer.organisation', { product: brand.productName, organisation: mailName(brand.name) })
    : text(locale, 'mail.footer.product', { product: brand.productName });
}

/** The event's date and time in its own time zone, as e-mails write it (`formatEventDateTime`). */
const eventWhen = (locale: Locale, e: MailEvent) => formatEventDateTime(locale, e.startsAt, e.timeZone);

/** The facts of a ticket e-mail: event, date and time (event's zone), venue with its map link, ticket type. */
function ticketFacts(locale: Locale, t: MailTicket): MailFact[] {
  const { place, mapUrl } = eventPlace(t.event);
  const l = texts(locale, 'mail.facts');
  const w = t.wallet;
  return [
    { label: l('event'), value: oneLine(t.event.name) },
    { label: l('when'), value: eventWhen(locale, t.event) },
    { label: l('venue'), value: oneLine(place), href: mapUrl },
    { label: l('type'), value: oneLine(t.ticketName) },
    ...(w?.apple ? [{ label: 'Apple Wallet', value: l('apple'), href: w.link }] : []),
    ...(w?.google ? [{ label: 'Google Wallet', value: l('google'), href: w.link }] : []),
  ];
}

/** The file name of the calendar attachment, in the holder's language. */
export const calendarFileName = (locale: Locale): string => text(locale, 'mail.files.calendar');

/**
 * The `.ics` attachment of a ticket e-mail: the event in its own time zone, linking to `link` (the panel).
 * `stamp` is when the mail is made; `sequence` grows when the event changed; `cancelled` withdraws the entry.
 */
function calendarAttachment(
  locale: Locale,
  t: MailTicket,
  link: string,
  stamp: Date,
  sequence = 0,
  cancelled = false,
): MailAttachment {
  const { place } = eventPlace(t.event);
  const content = calendarFile({
    uid: `${t.calendarId}@${new URL(link).host}`,
    name: oneLine(t.event.name),
    startsAt: t.event.startsAt,
    endsAt: t.event.endsAt,
    timeZone: t.event.timeZone,
    location: oneLine(place),
    url: link,
    description: `${text(locale, 'mail.calendar.description', { type: oneLine(t.ticketName) })}\n${link}`,
    stamp,
    sequence,
    cancelled,
  });
  return {
    filename: calendarFileName(locale),
    content,
    contentType: cancelled ? ICS_CANCEL_CONTENT_TYPE : ICS_CONTENT_TYPE,
  };
}

/**
 * A ticket e-mail: `texts` around the ticket's facts, a button to `input.link`, and the event's `.ics` attached
 * (`input.sequence` grows when the event changed). `heading` defaults to the subject.
 */
async function ticketMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; sequence?: number; cancelled?: boolean },
  texts: { subject: string; heading?: string; paragraphs: string[]; cta: string; footerLink?: MailLink },
): Promise<TicketMail> {
  return {
    ...(await renderMail({
      lang: locale,
      brand: input.brand,
      subject: texts.subject,
      heading: texts.heading,
      paragraphs: texts.paragraphs,
      facts: ticketFacts(locale, input.ticket),
      cta: { label: texts.cta, href: input.link },
      footer: footer(locale, input.brand),
      ...(texts.footerLink ? { footerLink: texts.footerLink } : {}),
    })),
    attachments: [calendarAttachment(locale, input.ticket, input.link, input.at, input.sequence, input.cancelled)],
  };
}

/** The ticket e-mails whose subject names the event and whose button is their own `cta`. */
type EventMailKind = 'resale_code' | 'ticket_issued' | 'event_changed' | 'swap_done';

/**
 * A ticket e-mail of `mail.<kind>` (ticketMail): subject `mail.<kind>.subject` with `{ event }` (the event's name on
 * one line), the paragraphs `paragraphs` makes from the kind's texts and that name, button `mail.<kind>.cta`.
 */
async function eventTicketMail<K extends EventMailKind>(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; sequence?: number },
  kind: K,
  paragraphs: (t: ReturnType<typeof texts<`mail.${K}`>>, event: string) => string[],
): Promise<TicketMail> {
  const event = oneLine(input.ticket.event.name);
  return ticketMail(locale, input, {
    subject: text(locale, `mail.${kind}.subject`, { event }),
    paragraphs: paragraphs(texts(locale, `mail.${kind}`), event),
    cta: text(locale, `mail.${kind}.cta`),
  });
}

/**
 * The sign-in code e-mail (the code is valid for `minutes`), naming the organisation of the panel that asked
 * (`brand`; the product's name on the unbranded panel).
 */
export async function signInCodeMail(
  locale: Locale,
  code: string,
  minutes: number,
  brand: MailBrand,
): Promise<RenderedMail> {
  const name = mailName(brand.name);
  const t = texts(locale, 'mail.sign_in');
  return renderMail({
    lang: locale,
    brand,
    subject: t('subject', { name, code }),
    heading: t('heading'),
    paragraphs: [t('line', { name })],
    code,
    facts: [],
    footer: `${t('valid', { count: minutes })} ${footer(locale, brand)}`,
  });
}

/**
 * The step-up code e-mail (issue 47): a code that confirms one `action` of a signed-in holder (`mail.step_up.action.*`:
 * "gift a ticket", …), distinct from a sign-in code in subject, heading and text; valid `minutes`.
 */
export async function stepUpCodeMail(
  locale: Locale,
  input: { code: string; minutes: number; action: StepUpAction },
  brand: MailBrand,
): Promise<RenderedMail> {
  const name = mailName(brand.name);
  const t = texts(locale, 'mail.step_up');
  const action = t(`action.${input.action}`);
  return renderMail({
    lang: locale,
    brand,
    subject: t('subject', { code: input.code, action }),
    heading: t('heading'),
    paragraphs: [t('line', { name, action })],
    code: input.code,
    facts: [],
    footer: `${t('valid', { count: input.minutes })} ${footer(locale, brand)}`,
  });
}

/**
 * The e-mail a gift receiver gets: who gifted what (the giver's name through `mailName`), the event's facts, a
 * link to the panel (`link`, with `?org=`) and the `.ics` file. `at`: when it is sent (the calendar's stamp).
 */
export async function giftReceivedMail(
  locale: Locale,
  input: { giver: string; ticket: MailTicket; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  // The giver's name is typed by any user: plain, single-line, never a link (mailName).
  const giver = mailName(input.giver);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t = texts(locale, 'mail.gift_received');
  return ticketMail(locale, input, {
    subject: t('subject', { giver }),
    paragraphs: [t('line', { giver, type: ticketName, event: eventName }), t('how')],
    cta: t('cta'),
  });
}

/**
 * The e-mail a giver gets once their gift is done (issue 40): what went to whom (`receiver`, the e-mail or username
 * they typed, through `mailName`), the event's facts, that a gift is final, and a link to the panel (`link`, with
 * `?org=`). With `at` (the gift's time, UTC; jobs enqueued before point 11 have none) an `.ics` that cancels the
 * giver's calendar entry of the ticket (same UID `calendarId@host`, `METHOD:CANCEL`, `STATUS:CANCELLED`, SEQUENCE the
 * gift's Unix time in seconds, above any sent before: issue 40 point 11), so their calendar no longer keeps the event.
 */
export async function giftSentMail(
  locale: Locale,
  input: { receiver: string; ticket: MailTicket; link: string; brand: MailBrand; at?: Date },
): Promise<RenderedMail & { attachments?: MailAttachment[] }> {
  const receiver = mailName(input.receiver);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t = texts(locale, 'mail.gift_sent');
  const { at } = input;
  const mail = await renderMail({
    lang: locale,
    brand: input.brand,
    subject: t('subject', { receiver }),
    paragraphs: [
      t('line', { type: ticketName, event: eventName, receiver }),
      t('final'),
      ...(at ? [t('calendar')] : []),
    ],
    facts: ticketFacts(locale, { ...input.ticket, wallet: undefined }),
    cta: { label: t('cta'), href: input.link },
    footer: footer(locale, input.brand),
  });
  if (!at) return mail;
  const cancel = calendarAttachment(locale, input.ticket, input.link, at, Math.floor(at.getTime() / 1000), true);
  return { ...mail, attachments: [cancel] };
}

/** The file name of the resale secret-code PDF, in the buyer's language (the mail's attachment and the download). */
export const codePdfFileName = (locale: Locale): string => text(locale, 'mail.files.code_pdf');

/**
 * The e-mail a resale buyer gets: what they bought, the event's facts, where to redeem the code (`link`, the
 * panel with `?org=`) and the `.ics` file; the caller attaches the secret-code PDF too.
 */
export async function resaleCodeMail(
  locale: Locale,
  p: { ticket: MailTicket; quantity: number; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  return eventTicketMail(locale, p, 'resale_code', (t, event) => [t('line', { count: p.quantity, event }), t('code')]);
}

/**
 * The e-mail a seller gets when a listing sells (issue 13), or when tickets they returned to an exchange queue sell
 * (`exchange`, issue 45): what sold, what they are owed, a link to the payout tab.
 */
export async function listingSoldMail(
  locale: Locale,
  p: {
    eventName: string;
    ticketName: string;
    quantity: number;
    amountCents: number;
    currencyCode: string;
    link: string;
    exchange?: boolean;
    brand: MailBrand;
  },
): Promise<RenderedMail> {
  const amount = formatCents(p.amountCents, p.currencyCode, locale);
  const eventName = oneLine(p.eventName);
  const ticketName = oneLine(p.ticketName);
  const t = texts(locale, 'mail.listing_sold');
  return renderMail({
    lang: locale,
    brand: p.brand,
    subject: t('subject', { count: p.quantity, event: eventName }),
    paragraphs: [
      t(p.exchange ? 'line_exchange' : 'line', { count: p.quantity, type: ticketName, event: eventName }),
      t('owed', { amount }),
    ],
    cta: { label: t('cta'), href: p.link },
    footer: footer(locale, p.brand),
  });
}

/** What the exchange queue's offer and purchase e-mails name: the tickets, their total (minor units) and the panel. */
type ExchangeMailInput = {
  ticket: MailTicket;
  quantity: number;
  amountCents: number;
  currencyCode: string;
  link: string;
  brand: MailBrand;
};

/**
 * The e-mail a fan gets when the exchange queue offers them tickets (issue 45, decision 042): how many of which type,
 * held for them until `expiresAt` (written in the event's zone), the total at face value (minor units), the event's
 * date and venue, and a button to the panel (`link`, My tickets with `?org=`) where they pay. No `.ics`: the tickets
 * are not theirs yet.
 */
export async function exchangeOfferedMail(
  locale: Locale,
  p: ExchangeMailInput & { expiresAt: Date },
): Promise<RenderedMail> {
  const event = oneLine(p.ticket.event.name);
  const type = oneLine(p.ticket.ticketName);
  const until = formatEventDateTime(locale, p.expiresAt, p.ticket.event.timeZone);
  const t = texts(locale, 'mail.exchange_offered');
  return renderMail({
    lang: locale,
    brand: p.brand,
    subject: t('subject', { count: p.quantity, event }),
    paragraphs: [
      t('line', { count: p.quantity, type, event, until }),
      t('amount', { amount: formatCents(p.amountCents, p.currencyCode, locale) }),
      t('next'),
    ],
    facts: ticketFacts(locale, p.ticket),
    cta: { label: t('cta'), href: p.link },
    footer: footer(locale, p.brand),
  });
}

/**
 * The e-mail a fan gets once their exchange offer is paid (issue 45): how many tickets of which type are now theirs,
 * what they paid (minor units, at face value), the event's facts and its `.ics`, and a button to the panel (`link`,
 * My tickets with `?org=`) where the pass is.
 */
export async function exchangePurchasedMail(locale: Locale, p: ExchangeMailInput & { at: Date }): Promise<TicketMail> {
  const event = oneLine(p.ticket.event.name);
  const t = texts(locale, 'mail.exchange_purchased');
  return ticketMail(locale, p, {
    subject: t('subject', { count: p.quantity, event }),
    paragraphs: [
      t('line', { count: p.quantity, type: oneLine(p.ticket.ticketName), event }),
      t('amount', { amount: formatCents(p.amountCents, p.currencyCode, locale) }),
      t('how'),
    ],
    cta: t('cta'),
  });
}

/**
 * The e-mail a fan gets when their exchange queue entry ends without tickets (issue 45): `expired` (an offer left
 * unpaid went to the next fan; they may join again) or `closed` (the queue closed at its closing time). Nothing was
 * charged. The button opens the panel (`link`).
 */
export async function exchangeEndedMail(
  locale: Locale,
  p: { eventName: string; reason: 'expired' | 'closed'; link: string; brand: MailBrand },
): Promise<RenderedMail> {
  const event = oneLine(p.eventName);
  const t = texts(locale, `mail.exchange_${p.reason}`);
  return renderMail({
    lang: locale,
    brand: p.brand,
    subject: t('subject', { event }),
    paragraphs: [t('line', { event }), t('charged')],
    cta: { label: t('cta'), href: p.link },
    footer: footer(locale, p.brand),
  });
}

/**
 * The e-mail a holder gets when an organiser issues them a ticket (issue 12): who issued what, the event's facts,
 * a link to the panel (with `?org=`) and the `.ics` file. The organisation's name is set by the platform admin,
 * but is still kept to one plain line (`mailName`).
 */
export async function ticketIssuedMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  const organisation = mailName(input.brand.name);
  const type = oneLine(input.ticket.ticketName);
  return eventTicketMail(locale, input, 'ticket_issued', (t, event) => [
    t('line', { organisation, type, event }),
    t('how'),
  ]);
}

/** A labelled link. */
type MailLink = { label: string; href: string };

/**
 * The reminder before an event (issue 23, REMINDER_HOURS): the event's facts and a link to the pass (`link`,
 * `PANEL_TAB=QR` with `?org=`), with the `.ics` file; after the small print, the holder's unsubscribe link
 * (`unsubscribeUrl`, issue 41 point 9; the same URL as the `List-Unsubscribe` header).
 */
export async function reminderMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; unsubscribeUrl?: string },
): Promise<TicketMail> {
  const eventName = oneLine(input.ticket.event.name);
  const when = eventWhen(locale, input.ticket.event);
  // Spanish says "es para el <day> …": the date and time in the form that follows "el" (`formatEventAt`).
  const at = formatEventAt(locale, input.ticket.event.startsAt, input.ticket.event.timeZone);
  const t = texts(locale, 'mail.reminder');
  return ticketMail(locale, input, {
    subject: t('subject', { event: eventName, when }),
    heading: t('heading', { event: eventName }),
    paragraphs: [t('line', { type: oneLine(input.ticket.ticketName), when, at }), t('how')],
    cta: t('cta'),
    ...(input.unsubscribeUrl ? { footerLink: { label: t('stop'), href: input.unsubscribeUrl } } : {}),
  });
}

/** A field's old and new value. */
type Change<T> = { from: T; to: T };

/** A point on the map. */
type Position = { latitude: number; longitude: number };

/**
 * What a change of an event's time or place changed (issue 46), each field with its old and its new value: the times
 * (written in the time zone each was set in), the time zone, venue, street address, city, country (ISO 3166 code)
 * and the map position (null: none).
 */
export interface MailEventChanges {
  startsAt?: Change<Date>;
  endsAt?: Change<Date>;
  timeZone?: Change<string>;
  venue?: Change<string>;
  address1?: Change<string>;
  city?: Change<string>;
  country?: Change<string>;
  position?: Change<Position | null>;
}

/**
 * One line per changed field of `c`, "<field>: was <old>; now <new>" in `locale` (`mail.event_changed.change`), in
 * the order of the event form. Times in the event's time zone of before (the old value) and of now (the new one),
 * country codes as the country's name in `locale`, an empty value as `mail.event_changed.none`.
 */
function changeLines(locale: Locale, event: MailEvent, c: MailEventChanges): string[] {
  const t = texts(locale, 'mail.event_changed');
  const zone = { from: c.timeZone?.from ?? event.timeZone, to: c.timeZone?.to ?? event.timeZone };
  const countries = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const plain = (v: string) => oneLine(v) || t('none');
  const shown = {
    startsAt: (v: Date, side: keyof typeof zone) => formatEventDateTime(locale, v, zone[side]),
    endsAt: (v: Date, side: keyof typeof zone) => formatEventDateTime(locale, v, zone[side]),
    timeZone: plain,
    venue: plain,
    address1: plain,
    city: plain,
    country: (v: string) => countries.of(v) ?? plain(v),
    position: (v: Position | null) => (v ? `${v.latitude}, ${v.longitude}` : t('none')),
  };
  const line = (field: keyof typeof shown, from: string, to: string) =>
    t('change', { field: t(`field.${field}`), from, to });
  const lines: string[] = [];
  for (const field of ['startsAt', 'endsAt'] as const) {
    const v = c[field];
    if (v) lines.push(line(field, shown[field](v.from, 'from'), shown[field](v.to, 'to')));
  }
  for (const field of ['timeZone', 'venue', 'address1', 'city', 'country'] as const) {
    const v = c[field];
    if (v) lines.push(line(field, shown[field](v.from), shown[field](v.to)));
  }
  if (c.position) lines.push(line('position', shown.position(c.position.from), shown.position(c.position.to)));
  return lines;
}

/**
 * The e-mail holders get when the organiser changes an event's time or venue (issue 23): what changed, each field's
 * old and new value (`changes`, issue 46; absent in a job enqueued before it), then the new facts, and an updated
 * `.ics` (same UID, higher `sequence`, so calendars replace the entry). For a new date (`newDate`, decision 047) the
 * subject and heading say so (`mail.event_new_date`), and with `newDate.refundUntil` a paragraph says the holder may
 * ask for a refund in their account until then (in the event's time zone; the button leads there).
 */
export async function eventChangedMail(
  locale: Locale,
  input: {
    ticket: MailTicket;
    link: string;
    brand: MailBrand;
    at: Date;
    sequence: number;
    changes?: MailEventChanges;
    newDate?: { refundUntil: Date | null };
  },
): Promise<TicketMail> {
  const organisation = mailName(input.brand.name);
  const lines = input.changes ? changeLines(locale, input.ticket.event, input.changes) : [];
  const changed = texts(locale, 'mail.event_changed');
  const paragraphs = (event: string) => [
    changed('line', { organisation, event }),
    ...(lines.length ? [changed('what'), ...lines] : []),
    changed('how'),
  ];
  if (!input.newDate) return eventTicketMail(locale, input, 'event_changed', (_t, event) => paragraphs(event));
  const event = oneLine(input.ticket.event.name);
  const t = texts(locale, 'mail.event_new_date');
  const { refundUntil } = input.newDate;
  const subject = t('subject', { event });
  return ticketMail(locale, input, {
    subject,
    heading: subject,
    paragraphs: [
      ...paragraphs(event),
      ...(refundUntil ? [t('refund', { until: formatEventAt(locale, refundUntil, input.ticket.event.timeZone) })] : []),
    ],
    cta: changed('cta'),
  });
}

/**
 * The e-mail holders get when the organiser cancels the event (issue 46, decision 045): that it is cancelled, the
 * organiser's own words (`reason`: how to get a refund) when they gave any, that the ticket no longer admits, and the
 * `.ics` withdrawn (`METHOD:CANCEL`, the entry's UID, `sequence` higher than any sent).
 */
export async function eventCancelledMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; sequence: number; reason: string | null },
): Promise<TicketMail> {
  const organisation = mailName(input.brand.name);
  const event = oneLine(input.ticket.event.name);
  const t = texts(locale, 'mail.event_cancelled');
  return ticketMail(
    locale,
    { ...input, cancelled: true },
    {
      subject: t('subject', { event }),
      paragraphs: [
        t('line', { organisation, event }),
        ...(input.reason ? [t('reason', { organisation, reason: input.reason })] : []),
        t('what'),
        t('ask', { organisation }),
      ],
      cta: t('cta'),
    },
  );
}

/**
 * The e-mail a holder gets when a swap is done (spec section 4 Swap): their `quantity` tickets are now of the
 * new type, with the event's facts, the amount paid (issue 40: `paid.cents` in minor units of `paid.currencyCode`,
 * the whole swap's, 0 for a downgrade; absent only in a job enqueued before the amount was recorded), a link to
 * the panel (with `?org=`) and the `.ics`.
 */
export async function swapDoneMail(
  locale: Locale,
  input: {
    ticket: MailTicket;
    quantity: number;
    paid?: { cents: number; currencyCode: string };
    link: string;
    brand: MailBrand;
    at: Date;
  },
): Promise<TicketMail> {
  const type = oneLine(input.ticket.ticketName);
  const { paid } = input;
  return eventTicketMail(locale, input, 'swap_done', (t, event) => [
    t('line', { count: input.quantity, event, type }),
    ...(paid ? [t('paid', { amount: formatMoney(paid.cents / 100, paid.currencyCode, locale) })] : []),
    t('how'),
  ]);
}

/** Why a `ticketRevoked` mail is sent beside the organiser's revoke (see {@link ticketRevokedMail}). */
export const TICKET_REVOKED_REASONS = [
  'refunded',
  'disputed',
  'reinstated',
  'sale_refunded',
  'sale_refunded_code',
] as const;
export type TicketRevokedReason = (typeof TICKET_REVOKED_REASONS)[number];

/** The texts a ticket notice reads: `mail.ticket_revoked`, `mail.ticket_<reason>`, `mail.refund_<decision>`. */
type NoticeSection = 'ticket_revoked' | `ticket_${TicketRevokedReason}` | 'refund_approved' | 'refund_declined';

/**
 * A notice about one ticket, with no `.ics`: the section's `subject` (`{ event }`) and `line` (`{ organisation, type,
 * event }`), then the paragraphs `more` makes from the section's texts and the organisation's name, the ticket's facts
 * (no wallet links) and the section's `cta` to the panel (`input.link`).
 */
async function ticketNoticeMail<S extends NoticeSection>(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand },
  section: S,
  more: (t: ReturnType<typeof texts<`mail.${S}`>>, organisation: string) => string[],
): Promise<RenderedMail> {
  const organisation = mailName(input.brand.name);
  const event = oneLine(input.ticket.event.name);
  const t = texts(locale, `mail.${section}`);
  return renderMail({
    lang: locale,
    brand: input.brand,
    subject: text(locale, `mail.${section}.subject`, { event }),
    paragraphs: [
      text(locale, `mail.${section}.line`, { organisation, type: oneLine(input.ticket.ticketName), event }),
      ...more(t, organisation),
    ],
    facts: ticketFacts(locale, { ...input.ticket, wallet: undefined }),
    cta: { label: text(locale, `mail.${section}.cta`), href: input.link },
    footer: footer(locale, input.brand),
  });
}

/**
 * The e-mail a holder gets when their ticket stops admitting or admits again, by `reason`: the organiser revoked it
 * (absent; issue 41 point 6), the payment it was bought with went back (`refunded`) or is disputed (`disputed`), or
 * that dispute was won (`reinstated`; issue 46), or the event was cancelled and the buyer's payment refunded, the
 * ticket back with its seller (`sale_refunded`, or `sale_refunded_code` to a resale buyer whose code was not redeemed
 * yet: the code no longer works; decision 045). Says what happened, whether it admits and is in their
 * panel, and whom to ask (the organisation). No `.ics`.
 */
export function ticketRevokedMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; reason?: TicketRevokedReason },
): Promise<RenderedMail> {
  const section: NoticeSection = input.reason ? `ticket_${input.reason}` : 'ticket_revoked';
  return ticketNoticeMail(locale, input, section, (t, organisation) => [t('what'), t('ask', { organisation })]);
}

/**
 * The e-mail a holder gets when the organiser approved their refund request (issue 46, decision 046): the ticket no
 * longer admits and has left their panel; the refund is made in the organiser's shop, `reference` its reference (null:
 * none given).
 */
export function refundApprovedMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; reference: string | null },
): Promise<RenderedMail> {
  return ticketNoticeMail(locale, input, 'refund_approved', (t, organisation) => [
    ...(input.reference ? [t('reference', { reference: oneLine(input.reference) })] : []),
    t('what'),
    t('ask', { organisation }),
  ]);
}

/**
 * The e-mail a holder gets when the organiser declined their refund request (issue 46): the organiser's `reason`;
 * the ticket stays theirs and admits.
 */
export function refundDeclinedMail(
  locale: Locale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; reason: string },
): Promise<RenderedMail> {
  return ticketNoticeMail(locale, input, 'refund_declined', (t, organisation) => [
    t('reason', { organisation, reason: input.reason }),
    t('what'),
  ]);
}

/**
 * The e-mail a person gets when an organisation adds them to its console (issue 41 point 6): which organisation,
 * with which role, and the console's address (`link`), where they sign in with a code sent to this address.
 */
export async function memberInvitedMail(
  locale: Locale,
  input: { role: OrgRole; link: string; brand: MailBrand },
): Promise<RenderedMail> {
  const org = mailName(input.brand.name);
  const t = texts(locale, 'mail.member_invited');
  return renderMail({
    lang: locale,
    brand: input.brand,
    subject: t('subject', { organisation: org }),
    paragraphs: [t('line', { organisation: org, role: t(`role.${input.role}`) }), t('how')],
    cta: { label: t('cta'), href: input.link },
    footer: footer(locale, input.brand),
  });
}
