/**
 * The resale secret-code PDF (pdfkit): event, ticket, quantity and the single-use code, in the buyer's
 * language; the event's date is written out in the event's time zone (24-hour clock in Spanish).
 *
 * Text is set in DejaVu Sans (TrueType files from the `dejavu-fonts-ttf` npm package), embedded and subset by
 * pdfkit, so every Latin (Extended), Greek and Cyrillic letter of an organiser's names is kept; the
 * standard Helvetica knows only Windows-1252. A character the font lacks (most emoji) is left out
 * rather than drawn as a missing-glyph box; when that is a letter or digit of a name (Chinese, Japanese, Korean,
 * Arabic, Hebrew, Indic scripts: DejaVu has no CJK at all), the PDF says under the code that a name could not be
 * shown in full and that the e-mail and the panel show it (issue 41, point 9). No CJK font is embedded: see
 * decision 025, "The resale PDF and CJK".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { formatEventDateTime } from '../../lib/lang.js';

const require = createRequire(import.meta.url);

let fonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined;
/**
 * The two faces, parsed once per process on first use and shared by every document: fontkit caches
 * the layout tables and glyphs it has read, so only the first PDF pays for reading them. pdfkit subsets them per document (only the glyphs used).
 */
function faces(): { regular: fontkit.Font; bold: fontkit.Font } {
  const open = (file: string) =>
    fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as fontkit.Font;
  fonts ??= { regular: open('DejaVuSans.ttf'), bold: open('DejaVuSans-Bold.ttf') };
  return fonts;
}

/**
 * Keeps the characters the embedded font can draw: any other (an emoji, a private-use or control
 * character) is left out, and a space it leaves doubled is folded. Exported for tests.
 */
export function printable(text: string): string {
  const font = faces().regular;
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x20 || (cp > 0x20 && cp !== 0x7f && font.hasGlyphForCodePoint(cp))) out += ch;
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** Whether `text` has a letter or digit the embedded font cannot draw (a name `printable` would shorten). */
function losesLetters(text: string): boolean {
  const font = faces().regular;
  for (const ch of text) if (/[\p{L}\p{N}]/u.test(ch) && !font.hasGlyphForCodePoint(ch.codePointAt(0)!)) return true;
  return false;
}

export interface CodePdfInput {
  lang: 'en' | 'es';
  eventName: string;
  venue: string;
  city: string;
  /** Event start (UTC instant). */
  startsAt: Date;
  /** The event's IANA time zone, in which the date is shown. */
  timeZone: string;
  ticketName: string;
  quantity: number;
  code: string;
  redeemUrl: string;
}

const T = {
  en: {
    title: 'Your resale tickets',
    event: 'Event',
    ticket: 'Ticket',
    qty: 'Quantity',
    code: 'Your secret code',
    how: 'Sign in to your ticket panel, open "Redeem ticket" and enter this code. It works once; keep it private.',
    lost: 'Some letters of the names above cannot be shown in this PDF; the e-mail and your ticket panel show them in full.',
  },
  es: {
    title: 'Tus entradas de reventa',
    event: 'Evento',
    ticket: 'Entrada',
    qty: 'Cantidad',
    code: 'Tu código secreto',
    how: 'Inicia sesión en tu panel de entradas, abre «Canjear entrada» e introduce este código. Solo funciona una vez; no lo compartas.',
    lost: 'Algunas letras de los nombres de arriba no se pueden mostrar en este PDF; el correo y tu panel de entradas los muestran completos.',
  },
};

/** Renders the PDF to a Buffer. */
export function renderCodePdf(p: CodePdfInput): Promise<Buffer> {
  const t = T[p.lang];
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: t.title }, font: null as unknown as string });
  // pdfkit takes a parsed fontkit font as a source too (its typings list only files and buffers).
  doc.registerFont('Body', faces().regular as unknown as Buffer);
  doc.registerFont('Bold', faces().bold as unknown as Buffer);
  doc.font('Body');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(22).text(t.title).moveDown();
  doc
    .fontSize(12)
    .fillColor('#555')
    .text(t.event)
    .fillColor('#000')
    .fontSize(14)
    .text(printable(p.eventName))
    .fontSize(12)
    .text(printable(`${p.venue}, ${p.city}`))
    .text(formatEventDateTime(p.lang, p.startsAt, p.timeZone))
    .moveDown();
  doc.fillColor('#555').text(t.ticket).fillColor('#000').fontSize(14).text(printable(p.ticketName)).moveDown();
  doc.fontSize(12).fillColor('#555').text(t.qty).fillColor('#000').fontSize(14).text(String(p.quantity)).moveDown();
  doc
    .fontSize(12)
    .fillColor('#555')
    .text(t.code)
    .fillColor('#000')
    .font('Bold')
    .fontSize(24)
    .text(p.code, { characterSpacing: 1 })
    .font('Body')
    .moveDown();
  doc.fontSize(11).text(t.how).moveDown();
  if ([p.eventName, p.venue, p.city, p.ticketName].some(losesLetters)) doc.text(t.lost).moveDown();
  doc.fillColor('#1a56db').text(p.redeemUrl, { link: p.redeemUrl });
  doc.end();
  return done;
}
