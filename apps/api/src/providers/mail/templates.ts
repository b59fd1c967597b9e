/** Transactional e-mail texts in en and es. */
export type MailLocale = 'en' | 'es';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in code e-mail (the code is valid for `minutes`). */
export function signInCodeMail(locale: MailLocale, code: string, minutes: number, productName: string) {
  const t =
    locale === 'es'
      ? {
          subject: `Tu código de acceso: ${code}`,
          line: `Tu código de acceso a ${productName} es`,
          valid: `Caduca en ${minutes} minutos. Si no lo has pedido tú, ignora este correo.`,
        }
      : {
          subject: `Your sign-in code: ${code}`,
          line: `Your ${productName} sign-in code is`,
          valid: `It expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.`,
        };
  return {
    subject: t.subject,
    text: `${t.line} ${code}\n\n${t.valid}`,
    html: `<p>${esc(t.line)}</p><p style="font-size:28px;font-weight:700;letter-spacing:6px">${esc(code)}</p><p>${esc(t.valid)}</p>`,
  };
}

/** The e-mail a gift receiver gets: who gifted what, with a link to the panel. */
export function giftReceivedMail(
  locale: MailLocale,
  p: { giver: string; ticketName: string; eventName: string; link: string },
) {
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
    html: `<p>${esc(t.line)}</p><p>${esc(t.how)}</p><p><a href="${esc(p.link)}">${esc(t.cta)}</a></p>`,
  };
}

/** The e-mail a resale buyer gets, with the secret-code PDF attached. */
export function resaleCodeMail(
  locale: MailLocale,
  p: { eventName: string; quantity: number; code: string; link: string },
) {
  const t =
    locale === 'es'
      ? {
          subject: `Tus entradas para ${p.eventName}`,
          line: `Has comprado ${p.quantity} entrada(s) de reventa para ${p.eventName}.`,
          code: 'Tu código secreto está en el PDF adjunto.',
          how: 'Canjéalo aquí',
        }
      : {
          subject: `Your tickets for ${p.eventName}`,
          line: `You bought ${p.quantity} resale ticket(s) for ${p.eventName}.`,
          code: 'Your secret code is in the attached PDF.',
          how: 'Redeem it here',
        };
  return {
    subject: t.subject,
    text: `${t.line}\n${t.code}\n\n${t.how}: ${p.link}`,
    html: `<p>${esc(t.line)}</p><p>${esc(t.code)}</p><p><a href="${esc(p.link)}">${esc(t.how)}</a></p>`,
  };
}
