/** Transactional e-mail texts in en and es. */
import { formatCents } from '@tp/contract/format';
import { plural } from '../../lib/lang.js';
import { escapeHtml } from '../../pages/html.js';

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

/** The sign-in code e-mail (the code is valid for `minutes`). */
export function signInCodeMail(locale: MailLocale, code: string, minutes: number, productName: string) {
  const t =
    locale === 'es'
      ? {
          subject: `${code} es tu código para iniciar sesión`,
          line: `Tu código para iniciar sesión en ${productName} es`,
          valid: `Caduca en ${minutes} ${plural('es', minutes, { one: 'minuto', other: 'minutos' })}. Si no lo has pedido tú, ignora este correo.`,
        }
      : {
          subject: `Your sign-in code: ${code}`,
          line: `Your ${productName} sign-in code is`,
          valid: `It expires in ${minutes} ${plural('en', minutes, { one: 'minute', other: 'minutes' })}. If you did not ask for it, ignore this e-mail.`,
        };
  return {
    subject: t.subject,
    text: `${t.line} ${code}\n\n${t.valid}`,
    html: `<p>${escapeHtml(t.line)}</p><p style="font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(code)}</p><p>${escapeHtml(t.valid)}</p>`,
  };
}

/** The e-mail a gift receiver gets: who gifted what (the giver's name through `mailName`), with a link to the panel. */
export function giftReceivedMail(
  locale: MailLocale,
  input: { giver: string; ticketName: string; eventName: string; link: string },
) {
  // The giver's name is typed by any user: plain, single-line, never a link (mailName).
  const p = {
    ...input,
    giver: mailName(input.giver),
    ticketName: oneLine(input.ticketName),
    eventName: oneLine(input.eventName),
  };
  const t =
    locale === 'es'
      ? {
          subject: `${p.giver} te ha regalado una entrada`,
          line: `${p.giver} te ha regalado «${p.ticketName}» para ${p.eventName}.`,
          cta: 'Ver mis entradas',
          how: 'Inicia sesión con este correo para verla.',
        }
      : {
          subject: `${p.giver} gifted you a ticket`,
          line: `${p.giver} gifted you "${p.ticketName}" for ${p.eventName}.`,
          cta: 'View my tickets',
          how: 'Sign in with this e-mail address to see it.',
        };
  return {
    subject: t.subject,
    text: `${t.line}\n\n${t.how}\n${t.cta}: ${p.link}`,
    html: `<p>${escapeHtml(t.line)}</p><p>${escapeHtml(t.how)}</p><p><a href="${escapeHtml(p.link)}">${escapeHtml(t.cta)}</a></p>`,
  };
}

/** The file name of the resale secret-code PDF, in the buyer's language (the mail's attachment and the download). */
export const codePdfFileName = (locale: MailLocale): string =>
  locale === 'es' ? 'codigo-de-entradas.pdf' : 'tickets-code.pdf';

/** The e-mail a resale buyer gets, with the secret-code PDF attached. */
export function resaleCodeMail(
  locale: MailLocale,
  p: { eventName: string; quantity: number; code: string; link: string },
) {
  const t =
    locale === 'es'
      ? {
          subject: `Tus entradas para ${p.eventName}`,
          line: `Has comprado ${p.quantity} ${plural('es', p.quantity, { one: 'entrada', other: 'entradas' })} de reventa para ${p.eventName}.`,
          code: 'Tu código secreto está en el PDF adjunto.',
          how: 'Canjéalo aquí',
        }
      : {
          subject: `Your tickets for ${p.eventName}`,
          line: `You bought ${p.quantity} resale ${plural('en', p.quantity, { one: 'ticket', other: 'tickets' })} for ${p.eventName}.`,
          code: 'Your secret code is in the attached PDF.',
          how: 'Redeem it here',
        };
  return {
    subject: t.subject,
    text: `${t.line}\n${t.code}\n\n${t.how}: ${p.link}`,
    html: `<p>${escapeHtml(t.line)}</p><p>${escapeHtml(t.code)}</p><p><a href="${escapeHtml(p.link)}">${escapeHtml(t.how)}</a></p>`,
  };
}

/** The e-mail a seller gets when a listing sells (issue 13): what sold, what they are owed, a link to the payout tab. */
export function listingSoldMail(
  locale: MailLocale,
  p: {
    eventName: string;
    ticketName: string;
    quantity: number;
    amountCents: number;
    currencyCode: string;
    link: string;
  },
) {
  const amount = formatCents(p.amountCents, p.currencyCode, locale);
  const t =
    locale === 'es'
      ? {
          subject: `Has vendido ${p.quantity === 1 ? 'una entrada' : `${p.quantity} entradas`} para ${p.eventName}`,
          line: `Se ${p.quantity === 1 ? 'ha vendido 1 entrada' : `han vendido ${p.quantity} entradas`} «${p.ticketName}» de ${p.eventName} que has puesto a la venta.`,
          owed: `Recibirás ${amount} en tu cuenta de cobros.`,
          cta: 'Ver mis ganancias',
        }
      : {
          subject: `You sold ${p.quantity === 1 ? 'a ticket' : `${p.quantity} tickets`} for ${p.eventName}`,
          line: `${p.quantity === 1 ? '1 ticket' : `${p.quantity} tickets`} "${p.ticketName}" for ${p.eventName} you listed for resale sold.`,
          owed: `You will receive ${amount} in your payout account.`,
          cta: 'See my earnings',
        };
  return {
    subject: t.subject,
    text: `${t.line}\n${t.owed}\n\n${t.cta}: ${p.link}`,
    html: `<p>${escapeHtml(t.line)}</p><p>${escapeHtml(t.owed)}</p><p><a href="${escapeHtml(p.link)}">${escapeHtml(t.cta)}</a></p>`,
  };
}

/**
 * The e-mail a holder gets when an organiser issues them a ticket (issue 12): who issued what, with a link to the
 * panel. The organisation's name is set by the platform admin, but is still kept to one plain line (`mailName`).
 */
export function ticketIssuedMail(
  locale: MailLocale,
  input: { organisationName: string; ticketName: string; eventName: string; link: string },
) {
  const p = {
    ...input,
    organisationName: mailName(input.organisationName),
    ticketName: oneLine(input.ticketName),
    eventName: oneLine(input.eventName),
  };
  const t =
    locale === 'es'
      ? {
          subject: `Tu entrada para ${p.eventName}`,
          line: `${p.organisationName} te ha enviado «${p.ticketName}» para ${p.eventName}.`,
          cta: 'Ver mis entradas',
          how: 'Inicia sesión con este correo para verla y mostrar tu pase en la puerta.',
        }
      : {
          subject: `Your ticket for ${p.eventName}`,
          line: `${p.organisationName} sent you "${p.ticketName}" for ${p.eventName}.`,
          cta: 'View my tickets',
          how: 'Sign in with this e-mail address to see it and show your pass at the door.',
        };
  return {
    subject: t.subject,
    text: `${t.line}\n\n${t.how}\n${t.cta}: ${p.link}`,
    html: `<p>${escapeHtml(t.line)}</p><p>${escapeHtml(t.how)}</p><p><a href="${escapeHtml(p.link)}">${escapeHtml(t.cta)}</a></p>`,
  };
}
