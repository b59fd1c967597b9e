/**
 * The resale secret-code PDF (pdfkit): event, ticket, quantity and the single-use code, in the buyer's
 * language; the event's date is written out in the event's time zone (24-hour clock in Spanish).
 */
import PDFDocument from 'pdfkit';
import { formatEventDateTime } from '../../lib/lang.js';

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
  },
  es: {
    title: 'Tus entradas de reventa',
    event: 'Evento',
    ticket: 'Entrada',
    qty: 'Cantidad',
    code: 'Tu código secreto',
    how: 'Inicia sesión en tu panel de entradas, abre «Canjear entrada» e introduce este código. Solo funciona una vez; no lo compartas.',
  },
};

/** Renders the PDF to a Buffer. */
export function renderCodePdf(p: CodePdfInput): Promise<Buffer> {
  const t = T[p.lang];
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: t.title } });
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
    .text(`${p.eventName}`)
    .fontSize(12)
    .text(`${p.venue}, ${p.city}`)
    .text(formatEventDateTime(p.lang, p.startsAt, p.timeZone))
    .moveDown();
  doc.fillColor('#555').text(t.ticket).fillColor('#000').fontSize(14).text(p.ticketName).moveDown();
  doc.fontSize(12).fillColor('#555').text(t.qty).fillColor('#000').fontSize(14).text(String(p.quantity)).moveDown();
  doc
    .fontSize(12)
    .fillColor('#555')
    .text(t.code)
    .fillColor('#000')
    .font('Courier-Bold')
    .fontSize(24)
    .text(p.code)
    .font('Helvetica')
    .moveDown();
  doc.fontSize(11).text(t.how).moveDown().fillColor('#1a56db').text(p.redeemUrl, { link: p.redeemUrl });
  doc.end();
  return done;
}
