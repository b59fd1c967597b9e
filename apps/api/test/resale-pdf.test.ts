import { extractText, getDocumentProxy } from 'unpdf';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { createTaskThread } from '../src/lib/task-thread.js';
import { printable, renderCodePdf, renderCodePdfInPlace, type CodePdfInput } from '../src/modules/resale/resale.pdf.js';

async function textOf(pdf: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  return (await extractText(doc, { mergePages: true })).text;
}

const base = {
  lang: 'en' as const,
  startsAt: new Date('2026-03-14T07:30:00Z'),
  timeZone: 'Pacific/Auckland',
  quantity: 2,
  code: 'AB12-CD34-EF56-GH78',
  redeemUrl: 'https://tickets.example/en/?PANEL_TAB=REDEEM',
};

describe('resale code PDF: an embedded Unicode font keeps every letter (issue 28)', () => {
  it('reads back Māori macrons, Polish, Ukrainian and Greek names exactly', async () => {
    const pdf = await renderCodePdf({
      ...base,
      eventName: 'Tāmaki Makaurau Sounds',
      venue: 'Te Pūkenga Hall',
      city: 'Łódź',
      ticketName: 'Київ · Αθήνα · Çeşme · Žďár',
    });
    const text = await textOf(pdf);
    expect(text).toContain('Tāmaki Makaurau');
    expect(text).toContain('Te Pūkenga Hall');
    expect(text).toContain('Łódź');
    expect(text).toContain('Київ');
    expect(text).toContain('Αθήνα');
    expect(text).toContain('Çeşme');
    expect(text).toContain('Žďár');
    expect(text).toContain(base.code);
    // Embedded (a font file in the PDF), not a standard font by name only.
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/FontFile2/);
    expect(raw).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  it('leaves out a character the font cannot draw without touching its neighbours', async () => {
    expect(printable('Fiesta 🦄 Київ')).toBe('Fiesta Київ');
    expect(printable('Łódź\u0000🦄🦄')).toBe('Łódź');
    const pdf = await renderCodePdf({
      ...base,
      lang: 'es',
      eventName: 'Noche 🦄 de Łódź',
      venue: 'Sala',
      city: 'Київ',
      ticketName: 'General',
    });
    const text = await textOf(pdf);
    expect(text).toContain('Noche de Łódź');
    expect(text).toContain('Sala, Київ');
  });

  it('reads a second PDF of a process back as exactly as the first (the font’s glyph cache emptied per document)', async () => {
    // A font shared between documents was changed by the first one's subset: the second read "Ja\u0012\u0012 Night".
    await renderCodePdf({ ...base, eventName: 'Žďár', venue: 'Hall', city: 'Łódź', ticketName: 'Київ · Αθήνα' });
    const text = await textOf(
      await renderCodePdf({ ...base, eventName: 'Jazz Night', venue: 'Hall', city: 'Shanghai', ticketName: 'VIP' }),
    );
    expect(text).toContain('Jazz Night');
  });

  it('keeps a Chinese name: 王小明 reads back intact, drawn from an embedded subset of a CJK font (issue 41, point 9)', async () => {
    const pdf = await renderCodePdf({
      ...base,
      eventName: '上海夏日音乐节 Summer Jazz',
      venue: '梅赛德斯奔驰文化中心',
      city: '上海',
      ticketName: '王小明 VIP · Київ',
    });
    const text = await textOf(pdf);
    expect(text).toContain('王小明 VIP · Київ');
    expect(text).toContain('上海夏日音乐节 Summer Jazz');
    expect(text).toContain('梅赛德斯奔驰文化中心, 上海');
    // Nothing was left out: no note.
    expect(text).not.toContain('cannot be shown');
    // Noto Sans Hans embedded as a subset (its 8.4 MB file is not in the PDF), beside DejaVu Sans.
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansHans-Regular/);
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(pdf.length).toBeLessThan(120_000);
    // A PDF of Latin names embeds no CJK font at all.
    const latin = await renderCodePdf({ ...base, eventName: 'Jazz', venue: 'Hall', city: 'Łódź', ticketName: 'VIP' });
    expect(latin.toString('latin1')).not.toContain('NotoSansHans');
  });

  it('says so when a name has letters no embedded font has (Korean, Devanagari), instead of dropping them silently (issue 41, point 9)', async () => {
    const pdf = await renderCodePdf({
      ...base,
      eventName: 'मुंबई Jazz Night',
      venue: 'Hall',
      city: 'Shanghai',
      ticketName: 'VIP',
    });
    const text = await textOf(pdf);
    expect(text).toContain('Jazz Night');
    expect(text).toContain('cannot be shown in this PDF');
    const es = await textOf(
      await renderCodePdf({
        ...base,
        lang: 'es',
        eventName: 'Noche',
        venue: 'Sala',
        city: 'Seúl',
        ticketName: '일반석',
      }),
    );
    expect(es).toContain('no se pueden mostrar en este PDF');
    // An emoji is not a letter of the name: no note for it.
    const emoji = await textOf(
      await renderCodePdf({ ...base, eventName: 'Fiesta 🦄', venue: 'Sala', city: 'Łódź', ticketName: 'General' }),
    );
    expect(emoji).not.toContain('cannot be shown');
  });
});

describe("the PDFs' thread (issue 44)", () => {
  it('draws on its thread what is drawn in place, a CJK name too', async () => {
    const thread = createTaskThread<CodePdfInput, Uint8Array>({
      moduleUrl: new URL('../src/modules/resale/resale.pdf.ts', import.meta.url).href,
      name: 'resale-pdf.worker',
      inPlace: renderCodePdfInPlace,
      workerFile: join(inject('serverBundle'), 'resale-pdf.worker.js'),
    });
    try {
      const input = { ...base, eventName: '東京ドーム · Łódź', venue: 'Hall', city: 'Tokyo', ticketName: 'VIP' };
      const [threaded, inPlace] = await Promise.all([thread.run(input), renderCodePdfInPlace(input)]);
      expect(await textOf(Buffer.from(threaded))).toBe(await textOf(inPlace));
      expect(await textOf(Buffer.from(threaded))).toContain('東京ドーム');
    } finally {
      await thread.close();
    }
  });
});
