/**
 * The top items of a Chrome trace written by `npx tsx bench/time-to-qr.ts --trace` (issue 30 point 4): on the
 * renderer's main thread, from the navigation to the first QR drawn (`--until` ms after the trace's first
 * navigation; default the whole trace), the time of each top-level task kind (script evaluation and calls by
 * file, parsing, style, layout, paint, GC...), self time, largest first.
 *
 * `npx tsx bench/trace-top.ts bench/trace-warm.json [--until 900] [--top 15]`
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    data?: { url?: string; functionName?: string; frame?: string; stackTrace?: { url: string }[] };
    name?: string;
  };
}

const [file] = process.argv.slice(2).filter((a) => !a.startsWith('--') && !/^\d+$/.test(a));
const opt = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : undefined;
};
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : raw.traceEvents;

// The renderer main thread: the one with the most complete (X) durations named like a task runner.
const threadNames = new Map<string, string>();
for (const e of events) if (e.name === 'thread_name' && e.args?.name) threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
const busy = new Map<string, number>();
for (const e of events)
  if (e.ph === 'X' && e.dur && threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain')
    busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur);
const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur);
const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationBodyLoader::StartLoadingBody');
const t0 = nav?.ts ?? Math.min(...onMain.map((e) => e.ts));
const until = opt('until');
const end = until === undefined ? Infinity : t0 + until * 1000;

// Self time of each event (its duration minus its children's), labelled by name and script file.
const inWindow = onMain.filter((e) => e.ts >= t0 && e.ts < end).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
const totals = new Map<string, number>();
const stack: { e: TraceEvent; label: string; child: number }[] = [];
const close = (upTo: number) => {
  while (stack.length && stack[stack.length - 1].e.ts + stack[stack.length - 1].e.dur! <= upTo) {
    const top = stack.pop()!;
    totals.set(top.label, (totals.get(top.label) ?? 0) + top.e.dur! - top.child);
    if (stack.length) stack[stack.length - 1].child += top.e.dur!;
  }
};
for (const e of inWindow) {
  close(e.ts);
  const url = e.args?.data?.url || e.args?.data?.stackTrace?.[0]?.url || '';
  const parentLabel = stack.length ? stack[stack.length - 1].label : '';
  const label = url
    ? `${e.name} ${basename(url.split('?')[0])}`
    : parentLabel.includes(' ') && e.name.startsWith('v8')
      ? parentLabel
      : e.name;
  stack.push({ e, label, child: 0 });
}
close(Infinity);
const top = opt('top') ?? 15;
const total = [...totals.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: main-thread busy ${(total / 1000).toFixed(0)} ms${until ? ` in the first ${until} ms` : ''}`);
for (const [label, us] of [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${label}`);
