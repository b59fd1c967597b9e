/**
 * `npx tsx bench/request-store-cost.ts [--path /v1/auth/me]` (issue 42; decisions 028 and 031): what carrying a
 * per-request AsyncLocalStorage store costs each answer on the Node that runs the bench. Starts the compiled API
 * (`npm run build` first) twice on the embedded database: as is, and with `bench/request-store.mjs` preloaded
 * (every request served inside a store, as `@fastify/request-context` did before decision 031 removed it). Drives
 * `GET /healthz` (or `--path`, a /v1/ path as alice, the demo holder) with autocannon (10 connections,
 * BENCH_SECONDS each, default 6) in BENCH_ROUNDS alternating rounds (default 4), and prints each round's rate and
 * server CPU per answer and the medians' difference. Node 20 and 22 propagate a store with promise hooks; Node 24
 * with AsyncContextFrame.
 */
import { resolve } from 'node:path';
import { signIn } from '../scripts/dev-sign-in.js';
import { compareCost } from './cost-ab.js';

const pathAt = process.argv.indexOf('--path');
const PATH = pathAt > 0 ? process.argv[pathAt + 1] : '/healthz';
console.log(`Node ${process.versions.node}, ${PATH}`);

await compareCost({
  name: 'store',
  off: {},
  on: { NODE_OPTIONS: `--import=${resolve(import.meta.dirname, 'request-store.mjs')}` },
  path: PATH,
  headers: async (base): Promise<Record<string, string>> =>
    PATH.startsWith('/v1/') ? { authorization: await signIn(base, 'alice@example.com') } : {},
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  rounds: Number(process.env.BENCH_ROUNDS ?? 4),
});
