/**
 * Mail rendering stall (issue 23, decision 025): what rendering the "ticket issued" e-mails of a 10,000-row
 * import costs and how long it holds the event loop. The mails are built as the import builds them
 * (`mailsOf` in ticket-issuing.ts): one after another in a time-sliced loop (`timeSlicer`, 8 ms slices), each the
 * cached MJML layout filled with its texts plus its `.ics`. Meanwhile a 1 ms interval probes the event loop
 * (its worst lateness is the stall another request would feel; the same probe over an idle second gives the
 * machine's own noise) and `monitorEventLoopDelay` records the same.
 * The baseline, in the same run: compiling MJML for every mail (no cache), timed over 50 mails.
 *
 * Standalone: `npx tsx --conditions=source bench/mail-render.ts` (`BENCH_MAILS`, default 10000).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import mjml2html from 'mjml';
import { timeSlicer } from '../apps/api/src/lib/time-slice.js';
import { mailBrand, panelLink } from '../apps/api/src/providers/mail/brand.js';
import { ticketIssuedMail, type MailTicket } from '../apps/api/src/providers/mail/templates.js';

const MAILS = Number(process.env.BENCH_MAILS ?? 10_000);
const publicUrl = 'http://panel.test';
const brand = mailBrand(
  { slug: 'acme', name: 'Acme Events', logoUrl: 'https://acme.example/logo.png', primaryColor: '#ff9900' },
  { productName: 'Ticket Panel', publicUrl },
);
const ticket = (i: number): MailTicket => ({
  calendarId: `ticket-${i}`,
  ticketName: 'General Admission',
  event: {
    name: 'Harbour Lights',
    startsAt: new Date('2026-12-01T08:00:00Z'),
    endsAt: new Date('2026-12-01T12:00:00Z'),
    timeZone: 'Australia/Sydney',
    venue: 'The Domain',
    address1: 'Art Gallery Rd',
    city: 'Sydney',
    latitude: -33.869,
    longitude: 151.217,
  },
});

/** Renders `n` mails as the import does; returns the elapsed milliseconds. */
async function renderAll(n: number): Promise<number> {
  const slice = timeSlicer();
  const at = new Date();
  const start = performance.now();
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    await slice.tick();
    const lang = i % 2 ? 'es' : 'en';
    const m = await ticketIssuedMail(lang, {
      ticket: ticket(i),
      link: panelLink(publicUrl, lang, 'acme', { PANEL_TAB: 'MY_TICKET' }),
      brand,
      at,
    });
    bytes += m.html.length + m.attachments[0].content.length;
  }
  if (bytes === 0) throw new Error('nothing rendered');
  return performance.now() - start;
}

// Warm-up: the first mail of each language compiles its layout (MJML), as the first mail after a start does.
await renderAll(2);

// Baseline: an MJML compile per mail (what the cache saves), 50 mails.
const sample = `<mjml><mj-body><mj-section><mj-column><mj-text>BODY</mj-text><mj-button href="https://x">b</mj-button></mj-column></mj-section></mj-body></mjml>`;
const b0 = performance.now();
for (let i = 0; i < 50; i++) await mjml2html(sample.replace('BODY', String(i)), { validationLevel: 'strict' });
const mjmlPerMailMs = (performance.now() - b0) / 50;

/** Runs `work` with a 1 ms interval probing the event loop; returns its result and the probe's worst lateness. */
async function probed<T>(work: () => Promise<T>): Promise<{ value: T; worstLateMs: number }> {
  let worstLateMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worstLateMs = Math.max(worstLateMs, now - last - 1);
    last = now;
  }, 1);
  const value = await work();
  clearInterval(probe);
  return { value, worstLateMs };
}

// The machine's own noise: the same probe over an idle second (other processes, GC), the unit of the stall.
const idle = await probed(() => new Promise<void>((resolve) => setTimeout(resolve, 1000)));

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const { value: totalMs, worstLateMs } = await probed(() => renderAll(MAILS));
histogram.disable();

const result = {
  mails: MAILS,
  totalMs: Math.round(totalMs),
  perMailMs: +(totalMs / MAILS).toFixed(3),
  worstEventLoopLateMs: +worstLateMs.toFixed(1),
  idleWorstEventLoopLateMs: +idle.worstLateMs.toFixed(1),
  eventLoopDelayP99Ms: +(histogram.percentile(99) / 1e6).toFixed(1),
  eventLoopDelayMaxMs: +(histogram.max / 1e6).toFixed(1),
  baselineMjmlCompilePerMailMs: +mjmlPerMailMs.toFixed(2),
  baselineMjmlFor10000MailsS: +((mjmlPerMailMs * 10_000) / 1000).toFixed(1),
};
console.log(JSON.stringify(result, null, 2));
