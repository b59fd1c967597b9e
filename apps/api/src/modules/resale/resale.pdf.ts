/**
 * The resale secret-code PDF (pdfkit): event, ticket, quantity and the single-use code, in the buyer's
 * language; the event's date is written out in the event's time zone (24-hour clock in Spanish).
 *
 * Text is set in DejaVu Sans (TrueType files from the `dejavu-fonts-ttf` npm package), embedded and subset by
 * pdfkit, so every Latin (Extended), Greek and Cyrillic letter of an organiser's names is kept; the standard
 * Helvetica knows only Windows-1252. A character DejaVu lacks is drawn in Noto Sans Hans (Noto Sans CJK SC, the
 * Regular face of the `@embedpdf/fonts-sc` npm package: the 6,763 Chinese characters of GB2312, Japanese kana,
 * full-width forms), also subset by pdfkit, so a Chinese name such as 王小明 is kept (issue 41, point 9; decision
 * 038). That font is read only when a PDF needs it: a PDF of Latin names never parses it. A character neither font
 * has (most emoji, Korean Hangul, Traditional characters outside GB2312, Indic scripts) is left out rather than drawn
 * as a missing-glyph box; when that is a letter or digit of a name, the PDF says under the code that a name could
 * not be shown in full and that the e-mail and the panel show it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as fontkit from 'fontkit';
import type PDFKit from 'pdfkit';
import type { Locale } from '@tp/contract';
import { textTable } from '../../lib/i18n.js';
import { createTaskThread } from '../../lib/task-thread.js';
import { formatEventDateTime } from '../../lib/lang.js';

const require = createRequire(import.meta.url);

/** The files of DejaVu Sans, its bold, and Noto Sans Hans Regular (8.4 MB, CFF). */
const FONT_FILES = {
  Body: () => require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  Bold: () => require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  // The package exports only a list of its faces (typed by a package it does not depend on): its files sit in
  // `fonts/` beside its `dist/`.
  Cjk: () => join(dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts', 'NotoSansHans-Regular.otf'),
} as const;

/**
 * pdfkit and fontkit, loaded with the first PDF rather than at start (decision 041): most instances never render one,
 * and the two hold about 11 MiB of heap once loaded.
 */
let pdfLibraries: Promise<typeof PDFKit> | null = null;
/** fontkit once `loadPdfLibraries` has loaded it (`face` reads it). */
let loadedFontkit: typeof fontkit | null = null;
const loadPdfLibraries = () =>
  (pdfLibraries ??= Promise.all([import('fontkit'), import('pdfkit')]).then(([fk, pdfkit]) => {
    loadedFontkit = fk;
    return pdfkit.default;
  }));

const parsed = new Map<string, fontkit.Font>();
/**
 * A face, parsed once per process on first use and shared by every document: fontkit caches the tables it has
 * read, so only the first PDF that needs a face pays for reading it (Noto Sans Hans only when a name needs it).
 * pdfkit subsets it per document (only the glyphs used).
 */
function face(name: keyof typeof FONT_FILES): fontkit.Font {
  let font = parsed.get(name);
  if (!font) {
    if (!loadedFontkit) throw new Error('resale.pdf: fontkit is not loaded yet (loadPdfLibraries first)');
    parsed.set(name, (font = loadedFontkit.create(readFileSync(FONT_FILES[name]())) as fontkit.Font));
  }
  return font;
}

/**
 * `font` with its glyph cache emptied, for a new document. fontkit 2 keeps each glyph object with the code points
 * it was first made with, and pdfkit's subset makes the components of a composite glyph (the `a` of `á`) without
 * any: a later document wrote that glyph's text as nothing or a control character (its "Jazz" extracted as
 * "Ja\u0012\u0012", found while adding the CJK font), though it drew it right. The tables stay parsed. A document
 * is laid out and ended in one synchronous call, so no other document is using the cache meanwhile.
 */
function forNewDocument(font: fontkit.Font): fontkit.Font {
  Reflect.set(font, '_glyphs', {}); // a private field fontkit's typings do not declare
  return font;
}

/** The pdfkit font names of the document: DejaVu Sans, its bold, and the CJK fallback. */
type FontName = 'Body' | 'Bold' | 'Cjk';

/** A stretch of text drawn in one font. */
interface Run {
  font: FontName;
  text: string;
}

/**
 * `text` cut into runs of one font each: DejaVu (`Body`) where it has the glyph, else Noto Sans Hans (`Cjk`), else
 * the character is left out (an emoji, a private-use or control character, a script neither font has); a space it
 * leaves doubled is folded. `lost`: a letter or digit was left out (the name is not shown in full).
 */
function runsOf(text: string): { runs: Run[]; lost: boolean } {
  const body = face('Body');
  const kept: { ch: string; font: FontName }[] = [];
  let lost = false;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 0x20) {
      // A space takes the font of what it follows (no switch for it); never leading, never doubled.
      const last = kept.at(-1);
      if (last && last.ch !== ' ') kept.push({ ch, font: last.font });
      continue;
    }
    const font: FontName | null =
      cp <= 0x20 || cp === 0x7f
        ? null
        : body.hasGlyphForCodePoint(cp)
          ? 'Body'
          : face('Cjk').hasGlyphForCodePoint(cp)
            ? 'Cjk'
            : null;
    if (font) kept.push({ ch, font });
    else if (/[\p{L}\p{N}]/u.test(ch)) lost = true;
  }
  while (kept.at(-1)?.ch === ' ') kept.pop();
  const runs: Run[] = [];
  for (const { ch, font } of kept) {
    const last = runs.at(-1);
    if (last?.font === font) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return { runs, lost };
}

/**
 * Keeps the characters the embedded fonts (DejaVu Sans, then Noto Sans Hans) can draw: any other (an emoji, a
 * private-use or control character) is left out, and a space it leaves doubled is folded. Exported for tests.
 */
export function printable(text: string): string {
  return runsOf(text)
    .runs.map((r) => r.text)
    .join('');
}

export interface CodePdfInput {
  lang: Locale;
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

/**
 * Renders the PDF to a Buffer on the calling thread (the PDF thread's work, and the fallback from source). Names
 * (event, venue, city, ticket type) are set run by run in the font that has their characters (`runsOf`); the rest of
 * the page is DejaVu Sans.
 */
export async function renderCodePdfInPlace(p: CodePdfInput): Promise<Buffer> {
  const PDFDocument = await loadPdfLibraries();
  const t = textTable(p.lang, 'pages.resale_pdf');
  // `font: null`: pdfkit loads no default Helvetica (every run sets its font); its typings allow only a name.
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: t.title }, font: null as unknown as string });
  // pdfkit takes a parsed fontkit font as a source too (its typings list only files and buffers).
  const register = (name: FontName) => doc.registerFont(name, forNewDocument(face(name)) as unknown as Buffer);
  register('Body');
  register('Bold');
  const names = [p.eventName, `${p.venue}, ${p.city}`, p.ticketName].map(runsOf);
  // Registered only when a name needs it: pdfkit embeds (a subset of) each font it draws with.
  if (names.some((n) => n.runs.some((r) => r.font === 'Cjk'))) register('Cjk');
  const [eventName, place, ticketName] = names;
  /** One line of a name, run by run (pdfkit's `continued` keeps them on one line and wraps them as one text). */
  const name = (n: { runs: Run[] }) => {
    if (n.runs.length === 0) doc.text('');
    n.runs.forEach((r, i) => doc.font(r.font).text(r.text, { continued: i < n.runs.length - 1 }));
    doc.font('Body');
  };
  doc.font('Body');
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fontSize(22).text(t.title).moveDown();
  doc.fontSize(12).fillColor('#555').text(t.event).fillColor('#000').fontSize(14);
  name(eventName);
  doc.fontSize(12);
  name(place);
  doc.text(formatEventDateTime(p.lang, p.startsAt, p.timeZone)).moveDown();
  doc.fillColor('#555').text(t.ticket).fillColor('#000').fontSize(14);
  name(ticketName);
  doc.moveDown();
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
  if (names.some((n) => n.lost)) doc.text(t.lost).moveDown();
  doc.fillColor('#1a56db').text(p.redeemUrl, { link: p.redeemUrl });
  doc.end();
  return done;
}

/**
 * The PDFs' thread (lib/task-thread.ts, `resale-pdf.worker.ts`): pdfkit and fontkit load there, on the first PDF,
 * and each PDF (about 7 ms, 40 ms with a CJK name's font subset, on this machine) is drawn there, never on the event
 * loop; the first one's load took about 0.2 s of the loop's time before.
 */
const pdfThread = createTaskThread<CodePdfInput, Uint8Array>({
  moduleUrl: import.meta.url,
  name: 'resale-pdf.worker',
  inPlace: renderCodePdfInPlace,
});

/** The code's PDF (see `renderCodePdfInPlace`), drawn on the PDFs' thread. @throws Error when drawing fails */
export async function renderCodePdf(p: CodePdfInput): Promise<Buffer> {
  const pdf = await pdfThread.run(p);
  return Buffer.isBuffer(pdf) ? pdf : Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
}
