/**
 * `npx tsx bench/metrics-cost.ts` (issue 25, decision 031): what the metrics cost each answer. Starts the compiled
 * API (`npm run build -w @tp/api` first) twice on the embedded database: once without metrics, once with
 * METRICS_TOKEN (every answer timed into the request histogram). Drives `GET /healthz` (what every answer pays:
 * hooks and headers, no database) with autocannon (10 connections, BENCH_SECONDS each, default 6) in BENCH_ROUNDS
 * alternating rounds (default 4: off, on, off, on, …; a change in the machine's load reaches both alike; `--path
 * /v1/auth/me` drives that path instead, as the demo holder), and prints
 * each round's rate and server CPU per answer, the medians' difference (the metrics' cost per answer, µs), and the
 * time of one scrape.
 */
import { signIn } from '../scripts/dev-sign-in.js';
import { compareCost } from './cost-ab.js';

const TOKEN = 'bench-metrics-token-0123456789';
const pathAt = process.argv.indexOf('--path');
/** `--path <path>`: drive that path instead of /healthz; a /v1/ path as alice, the demo holder (signed in first). */
const PATH = pathAt > 0 ? process.argv[pathAt + 1] : '/healthz';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await compareCost({
  name: 'metrics',
  off: {},
  on: { METRICS_TOKEN: TOKEN },
  path: PATH,
  headers: async (base): Promise<Record<string, string>> =>
    PATH.startsWith('/v1/') ? { authorization: await signIn(base, 'alice@example.com') } : {},
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
  after: async ({ on }) => {
    const scrapes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = await fetch(`${on.base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const text = await r.text();
      scrapes.push(performance.now() - t0);
      if (i === 0) console.log(`scrape: ${r.status}, ${text.length} bytes, ${text.split('\n').length} lines`);
    }
    console.log(`scrape time, median of 5: ${median(scrapes).toFixed(1)} ms`);
  },
});
