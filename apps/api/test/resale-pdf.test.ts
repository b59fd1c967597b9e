import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { printable, renderCodePdf } from '../src/modules/resale/resale.pdf.js';

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

  it('says so when a name has letters the font lacks (Chinese), instead of dropping them silently (issue 41, point 9)', async () => {
    const pdf = await renderCodePdf({
      ...base,
      eventName: '上海 Jazz Night',
      venue: 'Hall',
      city: 'Shanghai',
      ticketName: 'VIP',
    });
    const text = await textOf(pdf);
    expect(text).toContain('Night');
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
