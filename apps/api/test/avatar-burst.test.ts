/**
 * Avatar bursts against a real server process (issue 19, break 1): 12 tiny PNGs at once, then 50 mixed
 * uploads (valid, oversized, hostile, not an image). Uploads past the pool's queue are refused with
 * `api.profile.avatar_busy`, and a refused upload leaves nothing behind: before the fix tinypool had
 * already attached the 10 s deadline's abort listener to the refused task, and when the deadline passed
 * the listener failed an assertion outside any handler, an uncaught exception on which `lib/shutdown.ts`
 * exits. Here the process must still be up past every deadline, and /healthz, /en/ and /v1/auth/me must
 * answer within 1 s of their slowest time measured before the burst, in the same test, less what a control
 * server doing nothing waited in the same rounds. The 50 uploads come from another process:
 * sent from this one, building and pushing their 110 MB blocked this event loop for 3.5 s, which was measured
 * as the server's. The 50-upload test fails on the code before each fix: before cb2a2ac (tinypool's queue
 * refusing) the process exits at the refused uploads' deadline; before 8204f79 (uploads parsed before
 * admission, oversized bodies read) the other requests wait about 3 s.
 *
 * Runs on the embedded database only: what it measures is the image pool, its queue and its deadlines, which no
 * statement touches (the database is only the sign-in), and its two waits past the deadline would cost CI again per
 * database. The server runs with a 4 s deadline (AVATAR_DEADLINE_SECONDS) rather than the default 10: what is tested is
 * what happens at and after it, not its length.
 * The avatar's storage and its answers are tested on both databases (avatar.test.ts).
 * A holder has one upload in flight at a time (issue 39), so the bursts come from 20 holders: what fills the pool's
 * queue is many holders at once; one holder's extra uploads answer 409 `api.profile.avatar_upload_in_progress`.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { onPostgres } from './helper.js';
import { signInOver, startServerProcess, type ServerProcess } from './server-process.js';

/**
 * The server's upload deadline (AVATAR_DEADLINE_SECONDS), milliseconds: 4 s instead of the default 10, for the two
 * waits past it. Long enough for a tiny PNG queued behind others; the instancing SVG still runs into it.
 */
const DEADLINE_MS = 4_000;
let server: ServerProcess;
let token: string;
/** 20 holders' access tokens (`tokens[0]` is `token`). */
let tokens: string[];
beforeAll(async () => {
  if (onPostgres()) return;
  server = await startServerProcess({
    AVATAR_DEADLINE_SECONDS: String(DEADLINE_MS / 1000),
    OTP_REQUESTS_PER_IP_PER_MINUTE: '100',
    OTP_VERIFIES_PER_IP_PER_MINUTE: '100',
  });
  tokens = (
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => signInOver(server.url, i ? `holder${i}@example.com` : 'alice@example.com')),
    )
  ).map((s) => s.accessToken);
  token = tokens[0];
}, 90_000);
afterAll(async () => {
  await server?.dispose();
});

function upload(bytes: Buffer, filename = 'a.png', as = token) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  return fetch(`${server.url}/v1/auth/avatar`, {
    method: 'POST',
    headers: { authorization: `Bearer ${as}` },
    body: form,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { message?: string } }));
}

/**
 * The uploads' answer statuses, in order; sent in parallel by a child process (an oversized one: 11 MB), upload `i`
 * by holder `i % 20`.
 */
async function sendBurst(files: ({ base64: string } | { oversized: true })[]): Promise<number[]> {
  const script = `
    const { url, tokens, files } = JSON.parse(process.env.BURST);
    const bodies = files.map((f) => f.oversized ? Buffer.alloc(11 * 1024 * 1024) : Buffer.from(f.base64, 'base64'));
    const answers = await Promise.all(bodies.map((bytes, i) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), 'f' + i);
      return fetch(url + '/v1/auth/avatar', { method: 'POST', headers: { authorization: 'Bearer ' + tokens[i % tokens.length] }, body: form })
        .then(async (r) => { await r.arrayBuffer(); return r.status; }, (e) => 'failed: ' + e.cause?.code);
    }));
    process.stdout.write(JSON.stringify(answers));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, BURST: JSON.stringify({ url: server.url, tokens, files }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((r) => child.once('exit', r));
  return JSON.parse(out) as number[];
}

let controlWorst = 0;
let worstPath = '';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A bare HTTP server in its own process, doing no work: a control. On a shared, loaded machine (2 cores, load
 * 10-18) any process waits hundreds of milliseconds for a core; what the control waits is the machine's
 * share of a slow answer, not the server's.
 */
async function startControl(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s=require('http').createServer((q,r)=>r.end('ok')).listen(0,'127.0.0.1',()=>console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<string>((r) => child.stdout.once('data', (d: Buffer) => r(d.toString().trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/**
 * The slowest answer of `rounds` rounds of /healthz, /en/ and /v1/auth/me, milliseconds (`worstPath` says
 * which), and the slowest of the control server's answers asked in the same rounds; every answer < 500.
 */
async function slowestProbe(rounds: number, control?: string): Promise<number> {
  let worst = 0;
  for (let i = 0; i < rounds; i++) {
    if (control) {
      const started = performance.now();
      await (await fetch(control)).arrayBuffer();
      controlWorst = Math.max(controlWorst, performance.now() - started);
    }
    for (const path of ['/healthz', '/en/', '/v1/auth/me']) {
      const started = performance.now();
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      // /en/ is 503 when the panel is not built (the tests do not build it); it still has to answer.
      if (path !== '/en/') expect(res.status).toBeLessThan(500);
      const ms = performance.now() - started;
      if (ms > worst) worstPath = `${path} in round ${i}`;
      worst = Math.max(worst, ms);
    }
    await sleep(100);
  }
  return worst;
}

function tinyPng(): Promise<Buffer> {
  return sharp({ create: { width: 4, height: 4, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
}

/** 1.4 KB: each group draws the one before it twice, so 2^18 circles (runs into the deadline). */
function instancingSvg(levels = 18): Buffer {
  let s =
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512"><defs><g id="g0"><circle cx="256" cy="256" r="200" fill="#1234" stroke="#f00" stroke-width="9"/></g>';
  for (let i = 1; i <= levels; i++)
    s += `<g id="g${i}"><use href="#g${i - 1}"/><use href="#g${i - 1}" transform="rotate(1 256 256)"/></g>`;
  return Buffer.from(`${s}</defs><use href="#g${levels}"/></svg>`);
}

describe.skipIf(onPostgres())('avatar bursts', () => {
  it('12 parallel uploads: the refused ones leave nothing that fires after the deadline; the process stays up', async () => {
    const png = await tinyPng();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(png, 'a.png', tokens[i])));
    // 2 decoding and 8 waiting; the others are refused at once.
    const busy = answers.filter((r) => r.status === 429);
    expect(busy.length).toBeGreaterThanOrEqual(2);
    for (const r of busy) expect(r.body).toEqual({ message: 'api.profile.avatar_busy' });
    // The others are decoded, or run out of time waiting on a loaded machine.
    for (const r of answers.filter((a) => a.status !== 429))
      expect(r.status === 200 || r.body.message === 'api.profile.avatar_timeout').toBe(true);
    await sleep(DEADLINE_MS + 1500);
    expect(server.child.exitCode, server.output()).toBeNull();
    expect((await upload(png)).status).toBe(200);
  }, 60_000);

  it('50 mixed uploads (valid, oversized, hostile): the process stays up and other requests answer within 1 s of the baseline', async () => {
    const baseline = await slowestProbe(5);
    const png = await tinyPng();
    const kinds = [png, 'oversized', instancingSvg(), Buffer.from('GIF89a not really an allowed image'), png];
    // The burst is sent by another process: building and sending 110 MB of bodies blocks the sender's event
    // loop for seconds on a loaded machine, which here would be measured as the server's slowness.
    const burst = sendBurst(
      Array.from({ length: 50 }, (_, i) => kinds[i % kinds.length]).map((k) =>
        k === 'oversized' ? { oversized: true } : { base64: k.toString('base64') },
      ),
    );
    const control = await startControl();
    const during = await slowestProbe(15, control.url).finally(control.stop);
    const duringPath = worstPath;
    const answers = await burst;
    expect(answers).toHaveLength(50);
    for (const status of answers) expect([200, 400, 409, 413, 422, 429]).toContain(status);
    // Some are refused as busy: the path whose leftover deadline listener used to exit the process 10 s later
    // (issue 19, break 1). Without a refusal this test would say nothing about that path.
    const busy = answers.filter((status) => status === 429).length;
    expect(busy, `answers: ${answers.join(' ')}`).toBeGreaterThan(0);
    // Oversized uploads are refused on their Content-Length, before their bodies are read.
    expect(answers.filter((s, i) => i % 5 === 1 && s === 413)).toHaveLength(10);
    await sleep(DEADLINE_MS + 1500);
    expect(server.child.exitCode, server.output()).toBeNull();
    const after = await slowestProbe(2);
    const figures = `baseline ${baseline.toFixed(0)} ms, during ${during.toFixed(0)} ms (control server ${controlWorst.toFixed(0)} ms), after ${after.toFixed(0)} ms; ${busy} of 50 refused busy; slowest ${duringPath}`;
    console.log(`avatar burst: ${figures}`);
    // Within 1 s of the baseline, less what a server doing nothing waited for a core during the burst.
    expect(during - baseline - controlWorst, figures).toBeLessThan(1000);
    expect(after - baseline, figures).toBeLessThan(1000);
  }, 90_000);
});
