/**
 * Transactional e-mail texts in en and es (issue 23): what each e-mail says, laid out by `layout.ts` (MJML, one
 * HTML and text part per mail) under the organisation's brand (`brand.ts`). Ticket e-mails name the event, its
 * date and time in the event's time zone, the venue with a map link and the ticket type, and carry the event as
 * an `.ics` calendar file (`calendar.ts`).
 */
import type { OrgRole } from '@tp/contract';
import { formatCents, formatEventAt, formatEventDateTime, formatMoney } from '@tp/contract/format';
import { eventPlace } from '@tp/contract/place';
import { plural } from '../../lib/lang.js';
import { calendarFile, ICS_CANCEL_CONTENT_TYPE, ICS_CONTENT_TYPE } from './calendar.js';
import { renderMail, type MailBrand, type MailFact, type RenderedMail } from './layout.js';

export type MailLocale = 'en' | 'es';

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
function footer(locale: MailLocale, brand: MailBrand): string {
  const org = mailName(brand.name);
  if (locale === 'es')
    return brand.organisation
      ? `Enviado por ${brand.productName} en nombre de ${org}.`
      : `Enviado por ${brand.productName}.`;
  return brand.organisation ? `Sent by ${brand.productName} on behalf of ${org}.` : `Sent by ${brand.productName}.`;
}

/** The event's date and time in its own time zone, as e-mails write it (`formatEventDateTime`). */
const eventWhen = (locale: MailLocale, e: MailEvent) => formatEventDateTime(locale, e.startsAt, e.timeZone);

/** The facts of a ticket e-mail: event, date and time (event's zone), venue with its map link, ticket type. */
function ticketFacts(locale: MailLocale, t: MailTicket): MailFact[] {
  const { place, mapUrl } = eventPlace(t.event);
  const l =
    locale === 'es'
      ? { event: 'Evento', when: 'Fecha y hora', venue: 'Lugar', type: 'Tipo de entrada' }
      : { event: 'Event', when: 'Date and time', venue: 'Venue', type: 'Ticket type' };
  const w = t.wallet;
  const wallets =
    locale === 'es'
      ? { apple: 'Añadir a Apple Wallet', google: 'Añadir a Google Wallet' }
      : { apple: 'Add to Apple Wallet', google: 'Add to Google Wallet' };
  return [
    { label: l.event, value: oneLine(t.event.name) },
    { label: l.when, value: eventWhen(locale, t.event) },
    { label: l.venue, value: oneLine(place), href: mapUrl },
    { label: l.type, value: oneLine(t.ticketName) },
    ...(w?.apple ? [{ label: 'Apple Wallet', value: wallets.apple, href: w.link }] : []),
    ...(w?.google ? [{ label: 'Google Wallet', value: wallets.google, href: w.link }] : []),
  ];
}

/** The file name of the calendar attachment, in the holder's language. */
export const calendarFileName = (locale: MailLocale): string => (locale === 'es' ? 'evento.ics' : 'event.ics');

/**
 * The `.ics` attachment of a ticket e-mail: the event in its own time zone, linking to `link` (the panel).
 * `stamp` is when the mail is made; `sequence` grows when the event changed; `cancelled` withdraws the entry.
 */
function calendarAttachment(
  locale: MailLocale,
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
    description: `${locale === 'es' ? 'Tipo de entrada' : 'Ticket type'}: ${oneLine(t.ticketName)}\n${link}`,
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
  locale: MailLocale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; sequence?: number },
  texts: { subject: string; heading?: string; paragraphs: string[]; cta: string; footerLink?: MailLink },
): Promise<TicketMail> {
  return {
    ...(await renderMail({
      lang: locale,
      brand: input.brand,
      subject: texts.subject,
      heading: texts.heading ?? texts.subject,
      paragraphs: texts.paragraphs,
      facts: ticketFacts(locale, input.ticket),
      cta: { label: texts.cta, href: input.link },
      footer: footer(locale, input.brand),
      ...(texts.footerLink ? { footerLink: texts.footerLink } : {}),
    })),
    attachments: [calendarAttachment(locale, input.ticket, input.link, input.at, input.sequence)],
  };
}

/**
 * The sign-in code e-mail (the code is valid for `minutes`), naming the organisation of the panel that asked
 * (`brand`; the product's name on the unbranded panel).
 */
export async function signInCodeMail(
  locale: MailLocale,
  code: string,
  minutes: number,
  brand: MailBrand,
): Promise<RenderedMail> {
  const name = mailName(brand.name);
  const t =
    locale === 'es'
      ? {
          subject: `${code} es tu código para iniciar sesión en ${name}`,
          heading: 'Tu código para iniciar sesión',
          line: `Escribe este código para iniciar sesión y ver tus entradas de ${name}:`,
          valid: `Caduca en ${minutes} ${plural('es', minutes, { one: 'minuto', other: 'minutos' })}. Si no lo has pedido tú, ignora este correo.`,
        }
      : {
          subject: `Your ${name} sign-in code: ${code}`,
          heading: 'Your sign-in code',
          line: `Enter this code to sign in and see your ${name} tickets:`,
          valid: `It expires in ${minutes} ${plural('en', minutes, { one: 'minute', other: 'minutes' })}. If you did not ask for it, ignore this e-mail.`,
        };
  return renderMail({
    lang: locale,
    brand,
    subject: t.subject,
    heading: t.heading,
    paragraphs: [t.line],
    code,
    facts: [],
    footer: `${t.valid} ${footer(locale, brand)}`,
  });
}

/**
 * The e-mail a gift receiver gets: who gifted what (the giver's name through `mailName`), the event's facts, a
 * link to the panel (`link`, with `?org=`) and the `.ics` file. `at`: when it is sent (the calendar's stamp).
 */
export async function giftReceivedMail(
  locale: MailLocale,
  input: { giver: string; ticket: MailTicket; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  // The giver's name is typed by any user: plain, single-line, never a link (mailName).
  const giver = mailName(input.giver);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `${giver} te ha regalado una entrada`,
          line: `${giver} te ha regalado «${ticketName}» para ${eventName}.`,
          cta: 'Ver mis entradas',
          how: 'Inicia sesión con este correo para verla. El evento está en el archivo de calendario adjunto.',
        }
      : {
          subject: `${giver} gifted you a ticket`,
          line: `${giver} gifted you "${ticketName}" for ${eventName}.`,
          cta: 'View my tickets',
          how: 'Sign in with this e-mail address to see it. The event is in the attached calendar file.',
        };
  return ticketMail(locale, input, { subject: t.subject, paragraphs: [t.line, t.how], cta: t.cta });
}

/**
 * The e-mail a giver gets once their gift is done (issue 40): what went to whom (`receiver`, the e-mail or username
 * they typed, through `mailName`), the event's facts, that a gift is final, and a link to the panel (`link`, with
 * `?org=`). With `at` (the gift's time, UTC; jobs enqueued before point 11 have none) an `.ics` that cancels the
 * giver's calendar entry of the ticket (same UID `calendarId@host`, `METHOD:CANCEL`, `STATUS:CANCELLED`, SEQUENCE the
 * gift's Unix time in seconds, above any sent before: issue 40 point 11), so their calendar no longer keeps the event.
 */
export async function giftSentMail(
  locale: MailLocale,
  input: { receiver: string; ticket: MailTicket; link: string; brand: MailBrand; at?: Date },
): Promise<RenderedMail & { attachments?: MailAttachment[] }> {
  const receiver = mailName(input.receiver);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `Has regalado una entrada a ${receiver}`,
          line: `«${ticketName}» para ${eventName} es ahora de ${receiver}; le hemos avisado por correo.`,
          final: 'Los regalos son definitivos: la entrada y su pase QR ya no están en tu panel.',
          calendar: 'El archivo de calendario adjunto quita el evento de tu calendario.',
          cta: 'Ver mis entradas',
        }
      : {
          subject: `You gifted a ticket to ${receiver}`,
          line: `"${ticketName}" for ${eventName} now belongs to ${receiver}; we have e-mailed them.`,
          final: 'Gifts are final: the ticket and its pass are no longer in your panel.',
          calendar: 'The attached calendar file removes the event from your calendar.',
          cta: 'View my tickets',
        };
  const { at } = input;
  const mail = await renderMail({
    lang: locale,
    brand: input.brand,
    subject: t.subject,
    heading: t.subject,
    paragraphs: at ? [t.line, t.final, t.calendar] : [t.line, t.final],
    facts: ticketFacts(locale, { ...input.ticket, wallet: undefined }),
    cta: { label: t.cta, href: input.link },
    footer: footer(locale, input.brand),
  });
  if (!at) return mail;
  const cancel = calendarAttachment(locale, input.ticket, input.link, at, Math.floor(at.getTime() / 1000), true);
  return { ...mail, attachments: [cancel] };
}

/** The file name of the resale secret-code PDF, in the buyer's language (the mail's attachment and the download). */
export const codePdfFileName = (locale: MailLocale): string =>
  locale === 'es' ? 'codigo-de-entradas.pdf' : 'tickets-code.pdf';

/**
 * The e-mail a resale buyer gets: what they bought, the event's facts, where to redeem the code (`link`, the
 * panel with `?org=`) and the `.ics` file; the caller attaches the secret-code PDF too.
 */
export async function resaleCodeMail(
  locale: MailLocale,
  p: { ticket: MailTicket; quantity: number; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  const eventName = oneLine(p.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `Tus entradas para ${eventName}`,
          line: `Has comprado ${p.quantity} ${plural('es', p.quantity, { one: 'entrada', other: 'entradas' })} de reventa para ${eventName}.`,
          code: 'Tu código secreto está en el PDF adjunto; el evento, en el archivo de calendario.',
          how: 'Canjear mi código',
        }
      : {
          subject: `Your tickets for ${eventName}`,
          line: `You bought ${p.quantity} resale ${plural('en', p.quantity, { one: 'ticket', other: 'tickets' })} for ${eventName}.`,
          code: 'Your secret code is in the attached PDF, the event in the calendar file.',
          how: 'Redeem my code',
        };
  return ticketMail(locale, p, { subject: t.subject, paragraphs: [t.line, t.code], cta: t.how });
}

/** The e-mail a seller gets when a listing sells (issue 13): what sold, what they are owed, a link to the payout tab. */
export async function listingSoldMail(
  locale: MailLocale,
  p: {
    eventName: string;
    ticketName: string;
    quantity: number;
    amountCents: number;
    currencyCode: string;
    link: string;
    brand: MailBrand;
  },
): Promise<RenderedMail> {
  const amount = formatCents(p.amountCents, p.currencyCode, locale);
  const eventName = oneLine(p.eventName);
  const ticketName = oneLine(p.ticketName);
  const t =
    locale === 'es'
      ? {
          subject: `Has vendido ${p.quantity === 1 ? 'una entrada' : `${p.quantity} entradas`} para ${eventName}`,
          line: `Se ${p.quantity === 1 ? 'ha vendido 1 entrada' : `han vendido ${p.quantity} entradas`} «${ticketName}» de ${eventName} que has puesto a la venta.`,
          owed: `Recibirás ${amount} en tu cuenta de cobros.`,
          cta: 'Ver mis ganancias',
        }
      : {
          subject: `You sold ${p.quantity === 1 ? 'a ticket' : `${p.quantity} tickets`} for ${eventName}`,
          line: `${p.quantity === 1 ? '1 ticket' : `${p.quantity} tickets`} "${ticketName}" for ${eventName} you listed for resale sold.`,
          owed: `You will receive ${amount} in your payout account.`,
          cta: 'See my earnings',
        };
  return renderMail({
    lang: locale,
    brand: p.brand,
    subject: t.subject,
    heading: t.subject,
    paragraphs: [t.line, t.owed],
    cta: { label: t.cta, href: p.link },
    footer: footer(locale, p.brand),
  });
}

/**
 * The e-mail a holder gets when an organiser issues them a ticket (issue 12): who issued what, the event's facts,
 * a link to the panel (with `?org=`) and the `.ics` file. The organisation's name is set by the platform admin,
 * but is still kept to one plain line (`mailName`).
 */
export async function ticketIssuedMail(
  locale: MailLocale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date },
): Promise<TicketMail> {
  const org = mailName(input.brand.name);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `Tu entrada para ${eventName}`,
          line: `${org} te ha enviado «${ticketName}» para ${eventName}.`,
          cta: 'Ver mis entradas',
          how: 'Inicia sesión con este correo para verla y mostrar tu pase QR en la puerta. El evento está en el archivo de calendario adjunto.',
        }
      : {
          subject: `Your ticket for ${eventName}`,
          line: `${org} sent you "${ticketName}" for ${eventName}.`,
          cta: 'View my tickets',
          how: 'Sign in with this e-mail address to see it and show your pass at the door. The event is in the attached calendar file.',
        };
  return ticketMail(locale, input, { subject: t.subject, paragraphs: [t.line, t.how], cta: t.cta });
}

/** A labelled link. */
type MailLink = { label: string; href: string };

/**
 * The reminder before an event (issue 23, REMINDER_HOURS): the event's facts and a link to the pass (`link`,
 * `PANEL_TAB=QR` with `?org=`), with the `.ics` file; after the small print, the holder's unsubscribe link
 * (`unsubscribeUrl`, issue 41 point 9; the same URL as the `List-Unsubscribe` header).
 */
export async function reminderMail(
  locale: MailLocale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; unsubscribeUrl?: string },
): Promise<TicketMail> {
  const eventName = oneLine(input.ticket.event.name);
  const when = eventWhen(locale, input.ticket.event);
  const t =
    locale === 'es'
      ? {
          subject: `Recordatorio: ${eventName}, ${when}`,
          heading: `${eventName} se acerca`,
          line: `Tu entrada «${oneLine(input.ticket.ticketName)}» es para el ${formatEventAt(locale, input.ticket.event.startsAt, input.ticket.event.timeZone)}.`,
          how: 'Muestra tu pase QR en la puerta; lo tienes en tu panel.',
          cta: 'Ver mi pase QR',
          stop: 'Dejar de recibir recordatorios',
        }
      : {
          subject: `Reminder: ${eventName}, ${when}`,
          heading: `${eventName} is coming up`,
          line: `Your ticket "${oneLine(input.ticket.ticketName)}" is for ${when}.`,
          how: 'Show your pass at the door; it is in your panel.',
          cta: 'Show my pass',
          stop: 'Stop reminder e-mails',
        };
  return ticketMail(locale, input, {
    subject: t.subject,
    heading: t.heading,
    paragraphs: [t.line, t.how],
    cta: t.cta,
    ...(input.unsubscribeUrl ? { footerLink: { label: t.stop, href: input.unsubscribeUrl } } : {}),
  });
}

/**
 * The e-mail holders get when the organiser changes an event's time or venue (issue 23): the new facts and an
 * updated `.ics` (same UID, higher `sequence`, so calendars replace the entry).
 */
export async function eventChangedMail(
  locale: MailLocale,
  input: { ticket: MailTicket; link: string; brand: MailBrand; at: Date; sequence: number },
): Promise<TicketMail> {
  const eventName = oneLine(input.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `Cambio en ${eventName}: revisa la fecha y el lugar`,
          line: `${mailName(input.brand.name)} ha cambiado la fecha, la hora o el lugar de ${eventName}. El archivo de calendario adjunto sustituye al anterior.`,
          how: 'Así queda:',
          cta: 'Ver mis entradas',
        }
      : {
          subject: `Change to ${eventName}: check the date and venue`,
          line: `${mailName(input.brand.name)} changed the date, time or venue of ${eventName}. The attached calendar file replaces the previous one.`,
          how: 'It is now:',
          cta: 'View my tickets',
        };
  return ticketMail(locale, input, { subject: t.subject, paragraphs: [t.line, t.how], cta: t.cta });
}

/**
 * The e-mail a holder gets when a swap is done (spec section 4 Swap): their `quantity` tickets are now of the
 * new type, with the event's facts, the amount paid (issue 40: `paid.cents` in minor units of `paid.currencyCode`,
 * the whole swap's, 0 for a downgrade; absent only in a job enqueued before the amount was recorded), a link to
 * the panel (with `?org=`) and the `.ics`.
 */
export async function swapDoneMail(
  locale: MailLocale,
  input: {
    ticket: MailTicket;
    quantity: number;
    paid?: { cents: number; currencyCode: string };
    link: string;
    brand: MailBrand;
    at: Date;
  },
): Promise<TicketMail> {
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const n = input.quantity;
  const t =
    locale === 'es'
      ? {
          subject: `Cambio realizado: tus entradas para ${eventName}`,
          line: `${n === 1 ? 'Tu entrada para' : `Tus ${n} entradas para`} ${eventName} ${n === 1 ? 'es' : 'son'} ahora «${ticketName}».`,
          how: 'Tu pase QR sigue en tu panel. El evento está en el archivo de calendario adjunto.',
          cta: 'Ver mis entradas',
          paid: (amount: string) => `Importe pagado: ${amount}.`,
        }
      : {
          subject: `Swap done: your tickets for ${eventName}`,
          line: `${n === 1 ? 'Your ticket' : `Your ${n} tickets`} for ${eventName} ${n === 1 ? 'is' : 'are'} now "${ticketName}".`,
          how: 'Your pass is still in your panel. The event is in the attached calendar file.',
          cta: 'View my tickets',
          paid: (amount: string) => `Amount paid: ${amount}.`,
        };
  const paid = input.paid ? [t.paid(formatMoney(input.paid.cents / 100, input.paid.currencyCode, locale))] : [];
  return ticketMail(locale, input, { subject: t.subject, paragraphs: [t.line, ...paid, t.how], cta: t.cta });
}

/**
 * The e-mail a holder gets when the organiser revokes their ticket (issue 41 point 6): what was cancelled, that it
 * no longer admits and has left their panel, and whom to ask (the organisation). No `.ics`.
 */
export async function ticketRevokedMail(
  locale: MailLocale,
  input: { ticket: MailTicket; link: string; brand: MailBrand },
): Promise<RenderedMail> {
  const org = mailName(input.brand.name);
  const ticketName = oneLine(input.ticket.ticketName);
  const eventName = oneLine(input.ticket.event.name);
  const t =
    locale === 'es'
      ? {
          subject: `Tu entrada para ${eventName} ha sido anulada`,
          line: `${org} ha anulado «${ticketName}» para ${eventName}.`,
          what: 'Su pase QR ya no sirve para entrar y la entrada ya no aparece en tu panel.',
          ask: `Si no esperabas este cambio o tienes dudas sobre un reembolso, escribe a ${org}.`,
          cta: 'Ver mis entradas',
        }
      : {
          subject: `Your ticket for ${eventName} was cancelled`,
          line: `${org} cancelled "${ticketName}" for ${eventName}.`,
          what: 'Its pass no longer admits at the door and the ticket has left your panel.',
          ask: `If you did not expect this, or for any question about a refund, contact ${org}.`,
          cta: 'View my tickets',
        };
  return renderMail({
    lang: locale,
    brand: input.brand,
    subject: t.subject,
    heading: t.subject,
    paragraphs: [t.line, t.what, t.ask],
    facts: ticketFacts(locale, { ...input.ticket, wallet: undefined }),
    cta: { label: t.cta, href: input.link },
    footer: footer(locale, input.brand),
  });
}

/**
 * The e-mail a person gets when an organisation adds them to its console (issue 41 point 6): which organisation,
 * with which role, and the console's address (`link`), where they sign in with a code sent to this address.
 */
export async function memberInvitedMail(
  locale: MailLocale,
  input: { role: OrgRole; link: string; brand: MailBrand },
): Promise<RenderedMail> {
  const org = mailName(input.brand.name);
  // The console's own names of the roles (console-en.json, console-es.json: `members.roles`).
  const roles: Record<MailLocale, Record<OrgRole, string>> = {
    en: { owner: 'owner', staff: 'staff', door: 'door' },
    es: { owner: 'propietario', staff: 'equipo', door: 'acceso' },
  };
  const role = roles[locale][input.role];
  const t =
    locale === 'es'
      ? {
          subject: `Te han añadido a ${org} en la consola de organizadores`,
          line: `Ahora formas parte de ${org} con el rol de ${role}.`,
          how: 'Entra en la consola con este correo: te enviaremos un código para iniciar sesión. No necesitas contraseña.',
          cta: 'Abrir la consola',
        }
      : {
          subject: `You were added to ${org} in the organiser console`,
          line: `You are now a member of ${org}, with the ${role} role.`,
          how: 'Open the console with this e-mail address: we will send you a code to sign in. No password needed.',
          cta: 'Open the console',
        };
  return renderMail({
    lang: locale,
    brand: input.brand,
    subject: t.subject,
    heading: t.subject,
    paragraphs: [t.line, t.how],
    cta: { label: t.cta, href: input.link },
    footer: footer(locale, input.brand),
  });
}
