/** Transactional e-mail texts in en and es. */
export type MailLocale = 'en' | 'es';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in code e-mail (the code is valid for `minutes`). */
export function signInCodeMail(locale: MailLocale, code: string, minutes: number, productName: string) {
  const t = locale === 'es'
    ? { subject: `Tu código de acceso: ${code}`, line: `Tu código de acceso a ${productName} es`, valid: `Caduca en ${minutes} minutos. Si no lo has pedido tú, ignora este correo.` }
    : { subject: `Your sign-in code: ${code}`, line: `Your ${productName} sign-in code is`, valid: `It expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.` };
  return {
    subject: t.subject,
    text: `${t.line} ${code}\n\n${t.valid}`,
    html: `<p>${esc(t.line)}</p><p style="font-size:28px;font-weight:700;letter-spacing:6px">${esc(code)}</p><p>${esc(t.valid)}</p>`,
  };
}
