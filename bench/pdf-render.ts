/**
 * The resale secret-code PDF (issue 41 point 9, decision 038): its size and render time with names in Chinese and
 * with Latin names only. Each kind is rendered once in this fresh process (the first PDF pays for reading the fonts
 * it needs), then `BENCH_PDFS` more times (default 20): median and 90th percentile, and the file's size.
 *
 * Standalone: `npx tsx --conditions=source bench/pdf-render.ts` (run it a few times: the first numbers depend on
 * the disk cache and the load of the machine).
 */
import { renderCodePdf } from '../apps/api/src/modules/resale/resale.pdf.js';

const RUNS = Number(process.env.BENCH_PDFS ?? 20);
const base = {
  lang: 'en' as const,
  startsAt: new Date('2026-03-14T07:30:00Z'),
  timeZone: 'Pacific/Auckland',
  quantity: 2,
  code: 'AB12-CD34-EF56-GH78',
  redeemUrl: 'https://tickets.example/en/?PANEL_TAB=REDEEM',
};
const kinds = {
  chinese: {
    ...base,
    eventName: '上海夏日音乐节',
    venue: '梅赛德斯奔驰文化中心',
    city: '上海',
    ticketName: '王小明 VIP',
  },
  latin: {
    ...base,
    eventName: 'Tāmaki Makaurau Sounds',
    venue: 'Te Pūkenga Hall',
    city: 'Łódź',
    ticketName: 'General',
  },
};

async function main() {
  for (const [name, input] of Object.entries(kinds)) {
    const t0 = performance.now();
    await renderCodePdf(input);
    const firstMs = performance.now() - t0;
    const times: number[] = [];
    let size = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      size = (await renderCodePdf(input)).length;
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(RUNS - 1, Math.floor(RUNS * q))].toFixed(1);
    console.log(
      `${name}: first ${firstMs.toFixed(0)} ms, then median ${at(0.5)} ms, p90 ${at(0.9)} ms; ${size.toLocaleString('en')} bytes`,
    );
  }
}
void main();
