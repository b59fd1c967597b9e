/**
 * Apple pass downloads do not stall an instance (issue 39, break 5): a real server process in wallet test mode gets
 * 30 pass downloads a second for 4 s, from 12 holders, while /healthz is asked in a loop. Before the fix each pass
 * was built and signed on the event loop (~31 ms of CPU each) and /healthz's p99 passed 1 s at 12–20 downloads a
 * second; now the signing threads do it (modules/wallet/pass-signer.ts) and /healthz's p99 stays under 100 ms, or
 * under twice its p99 measured at rest in the same test when this loaded machine is slower than that (test/timing.ts).
 *
 * Runs on the embedded database only: what is measured is where the signing runs, which no statement touches; the
 * pass routes' answers are tested on both databases (wallet.test.ts, wallet-signing.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres } from './helper.js';
import { signInOver, startServerProcess, type ServerProcess } from './server-process.js';
import { budgetMs } from './timing.js';

const HOLDERS = 12;
const PER_SECOND = 30;
const SECONDS = 4;
let server: ServerProcess;
/** Each holder's token and the ticket whose pass they download. */
const holders: { token: string; userTicketId: number }[] = [];
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  if (onPostgres()) return;
  server = await startServerProcess({
    WALLET_TEST_MODE: 'true',
    // Every request comes from 127.0.0.1: the per-IP limits would measure themselves, not the signing.
    WALLET_PER_IP_PER_MINUTE: '100000',
    WALLET_PASSES_PER_USER_PER_MINUTE: '100000',
    OTP_REQUESTS_PER_IP_PER_MINUTE: '1000',
    OTP_VERIFIES_PER_IP_PER_MINUTE: '1000',
  });
  const key = readFileSync(join(server.dataDir, 'demo-org-api-key'), 'utf8').trim();
  const put = async (path: string, body: unknown) => {
    const r = await fetch(`${server.url}/v1/org/${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`PUT ${path}: ${r.status} ${await r.text()}`);
  };
  const hour = 3600_000;
  await put('events/wallet-load', {
    name: 'Wallet Load',
    venue: 'Hall',
    city: 'Auckland',
    country: 'NZ',
    startsAt: new Date(Date.now() + 2 * hour).toISOString(),
    endsAt: new Date(Date.now() + 6 * hour).toISOString(),
    timeZone: 'Pacific/Auckland',
    passRevealAt: new Date(Date.now() - hour).toISOString(),
  });
  await put('ticket-types/wallet-load-ga', {
    eventExternalId: 'wallet-load',
    name: 'General',
    priceCents: 1000,
    currency: 'NZD',
    isGiftable: true,
    isResellable: false,
    isSwappable: false,
  });
  for (let i = 0; i < HOLDERS; i++)
    await put(`tickets/wallet-load-${i}`, {
      ticketTypeExternalId: 'wallet-load-ga',
      holderEmail: `wallet-load-${i}@example.com`,
    });
  for (let i = 0; i < HOLDERS; i++) {
    const { accessToken: token } = await signInOver(server.url, `wallet-load-${i}@example.com`);
    const listing = (await (
      await fetch(`${server.url}/v1/list/ticket_listing?status=UPCOMING`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { userTicketId: number; eventName: string }[];
    const ticket = listing.find((t) => t.eventName === 'Wallet Load');
    if (!ticket) throw new Error(`wallet-load-${i} holds no Wallet Load ticket`);
    holders.push({ token, userTicketId: ticket.userTicketId });
  }
}, 180_000);
afterAll(async () => {
  await server?.dispose();
});

const download = (h: { token: string; userTicketId: number }) =>
  fetch(`${server.url}/v1/tickets/${h.userTicketId}/wallet/apple`, {
    headers: { authorization: `Bearer ${h.token}` },
  }).then(async (r) => ({
    status: r.status,
    type: r.headers.get('content-type'),
    bytes: (await r.arrayBuffer()).byteLength,
  }));

/** /healthz asked one after another (20 ms apart) until `until` resolves: each answer's time, milliseconds. */
async function probeHealthz(until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    const started = performance.now();
    const r = await fetch(`${server.url}/healthz`);
    await r.arrayBuffer();
    expect(r.status).toBe(200);
    times.push(performance.now() - started);
    await sleep(20);
  }
  return times;
}
const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
/** CPU time of the server's main thread (its event loop) so far, ms: utime + stime of /proc/<pid>/task/<pid>/stat. */
function mainThreadCpuMs(): number {
  const pid = server.child.pid as number;
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // After "pid (comm) ": field 3 (state) first; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
/** The server's main-thread CPU per call of `n` sequential calls of `fn`, ms. */
async function mainThreadCpuPer(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  const before = mainThreadCpuMs();
  for (let i = 0; i < n; i++) await fn(i);
  return (mainThreadCpuMs() - before) / n;
}
const p99 = (times: number[]) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * 0.99))];

describe.skipIf(onPostgres())('Apple pass downloads under load', () => {
  it(`${PER_SECOND} downloads a second from ${HOLDERS} holders: /healthz p99 stays under 100 ms`, async () => {
    // Warm up: the signing thread starts on the first pass.
    for (const h of holders.slice(0, 2)) expect((await download(h)).status).toBe(200);
    const rest = await probeHealthz(sleep(2000));

    const answers: Promise<{ status: number; type: string | null; bytes: number }>[] = [];
    const load = (async () => {
      const started = performance.now();
      for (let i = 0; i < PER_SECOND * SECONDS; i++) {
        // Sent on a fixed schedule, whatever the answers take (an open loop, as a crowd sends).
        const due = started + (i * 1000) / PER_SECOND;
        await sleep(Math.max(0, due - performance.now()));
        answers.push(download(holders[i % HOLDERS]));
      }
      return Promise.all(answers);
    })();
    const during = await probeHealthz(load);
    const results = await load;

    const ok = results.filter((r) => r.status === 200);
    for (const r of ok) expect(r.type).toBe('application/vnd.apple.pkpass');
    // A pass beyond the signing queue is refused (503 api.wallet.busy), never left waiting without bound.
    for (const r of results) expect([200, 503]).toContain(r.status);
    const budget = budgetMs(p99(rest), 2, 100);
    const figures = `/healthz p99 at rest ${p99(rest).toFixed(0)} ms (${rest.length} probes), under ${PER_SECOND} downloads/s ${p99(during).toFixed(0)} ms (${during.length} probes, max ${Math.max(...during).toFixed(0)} ms); ${ok.length} of ${results.length} passes 200, ${results.length - ok.length} refused busy; budget ${budget} ms`;
    console.log(`wallet signing load: ${figures}`);
    // Most passes are made: the refusal is for bursts beyond the queue, not the normal rate.
    expect(ok.length, figures).toBeGreaterThanOrEqual(results.length * 0.8);
    expect(p99(during), figures).toBeLessThan(budget);
  }, 90_000);

  it("a pass download costs the event loop little more than /v1/auth/me (before: ~31 ms, /auth/me's 1.5 ms)", async () => {
    const me = await mainThreadCpuPer(60, (i) =>
      fetch(`${server.url}/v1/auth/me`, { headers: { authorization: `Bearer ${holders[i % HOLDERS].token}` } }).then(
        (r) => r.arrayBuffer(),
      ),
    );
    const pass = await mainThreadCpuPer(60, async (i) =>
      expect((await download(holders[i % HOLDERS])).status).toBe(200),
    );
    const figures = `main-thread CPU per request: pass download ${pass.toFixed(1)} ms, /v1/auth/me ${me.toFixed(1)} ms`;
    console.log(`wallet signing load: ${figures}`);
    // The pass's own reads (ticket, pass row) and its 5 KB answer; the signing is elsewhere.
    expect(pass, figures).toBeLessThan(Math.max(4 * me, 6));
  }, 90_000);
});
