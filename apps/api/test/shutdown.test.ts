/**
 * Graceful shutdown (issue 11): a real server process gets SIGTERM while 40 requests (gift checks of a signed-in
 * holder) are in flight, their bodies half sent. It stops taking new connections, answers all 40, closes the database and exits 0.
 * Runs in both projects: on PGlite (closes the embedded database) and on PostgreSQL (closes the pool).
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { freshPostgresUrl, onPostgres } from './helper.js';
import { signInOver, startServerProcess, type ServerProcess } from './server-process.js';
import { baselineMs, budgetMs } from './timing.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.dispose();
});

/** Starts a gift check (POST /v1/mobile/gift/verify) whose body is only half sent; `finish()` sends the rest. */
function halfSent(port: number, accessToken: string, userTicketId: number) {
  const body = JSON.stringify({ userTicketId });
  const cut = Math.floor(body.length / 2);
  const pending: (() => void)[] = [];
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/mobile/gift/verify',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${accessToken}`,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, cut));
    pending.push(() => req.end(body.slice(cut)));
  });
  return { answer, finish: () => pending.forEach((f) => f()) };
}

describe('SIGTERM', () => {
  it('finishes the 40 requests in flight, refuses new connections, closes the database and exits 0', async () => {
    server = await startServerProcess(onPostgres() ? { DATABASE_URL: await freshPostgresUrl() } : {});
    const { accessToken } = await signInOver(server.url, 'alice@example.com');
    const tickets = (await (
      await fetch(`${server.url}/v1/list/ticket_listing?status=UPCOMING`, {
        headers: { authorization: `Bearer ${accessToken}` },
      })
    ).json()) as { userTicketId: number }[];
    const port = server.port;
    const url = server.url;
    // Baseline: one request's round trip on this machine now; the waits below are multiples of it.
    const roundTrip = await baselineMs(() => fetch(`${url}/healthz`).then((r) => r.text()));
    const inFlight = Array.from({ length: 40 }, (_, i) =>
      halfSent(port, accessToken, tickets[i % tickets.length].userTicketId),
    );
    await sleep(budgetMs(roundTrip, 20, 500)); // every request has reached the server, its body half read
    server.child.kill('SIGTERM');

    // No new connections once the signal is in: refused within a few round trips (at least 300 ms), asked until then.
    const healthz = () =>
      fetch(`${url}/healthz`).then(
        () => 'answered',
        (err: Error) => String((err.cause as { code?: string } | undefined)?.code),
      );
    const until = Date.now() + budgetMs(roundTrip, 50, 3000);
    let refused = await healthz();
    while (refused !== 'ECONNREFUSED' && Date.now() < until) {
      await sleep(budgetMs(roundTrip, 1, 20));
      refused = await healthz();
    }
    expect(refused, `round trip ${roundTrip} ms`).toBe('ECONNREFUSED');

    for (const r of inFlight) r.finish();
    const answers = await Promise.all(inFlight.map((r) => r.answer));
    expect(
      answers.filter((a) => a.status !== 200),
      server
        .output()
        .split('\n')
        .filter((l) => l.includes('level'))
        .join('\n'),
    ).toEqual([]);
    for (const a of answers) expect(JSON.parse(a.body)).toHaveProperty('extras');
    expect(await server.exited, server.output()).toBe(0);
  }, 90_000);
});
