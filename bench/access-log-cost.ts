/**
 * `npx tsx bench/access-log-cost.ts` (issue 41, point 8; decision 031): what the access log costs each answer.
 * Starts the compiled API (`npm run build -w @tp/contract -w @tp/api` first) twice on the embedded database, its
 * stdout to /dev/null as bench/server.ts starts it: LOG_LEVEL=warn (no access log: what every answer paid before)
 * and LOG_LEVEL=info (one `request completed` line per answer). Drives `GET /healthz` with autocannon
 * (10 connections, BENCH_SECONDS each, default 6) in BENCH_ROUNDS alternating rounds (default 4), and prints each
 * round's rate and server CPU per answer and the medians' difference (the line's cost per answer, µs).
 */
import { compareCost } from './cost-ab.js';

await compareCost({
  name: 'log',
  off: { LOG_LEVEL: 'warn' },
  on: { LOG_LEVEL: 'info' },
  path: '/healthz',
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
});
