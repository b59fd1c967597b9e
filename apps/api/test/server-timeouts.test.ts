/**
 * Server timeouts (issue 43, decision 039) on a real listening server: a client that sends part of its headers and
 * stalls is closed after CONNECTION_TIMEOUT_SECONDS; one that trickles its headers (slowloris) gets 408 after
 * HEADERS_TIMEOUT_SECONDS, one that trickles its body after REQUEST_TIMEOUT_SECONDS; an idle keep-alive connection
 * is closed after KEEP_ALIVE_TIMEOUT_SECONDS. A client that sends its request answers as usual.
 * PGlite project only (vitest.config.ts `oneDatabaseFiles`): nothing here differs by database.
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = undefined;
});

/** A listening app with `config`; the raw TCP connection to it. */
async function serve(config: Partial<Config>): Promise<() => Socket> {
  t = await createTestApp({ config, runJobs: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return () => {
    const socket = connect(port, '127.0.0.1');
    // The server resets a connection it timed out: a trickled write after that fails (ECONNRESET), which is the
    // client's lot, not the test's failure; what the server did is read from `close` and the bytes it sent.
    socket.on('error', () => undefined);
    sockets.push(socket);
    return socket;
  };
}

/** What the server sent on `socket` until it closed it, and after how many ms; rejects after `ms`. */
function untilClosed(socket: Socket, ms: number): Promise<{ received: string; afterMs: number }> {
  const start = performance.now();
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms; received: ${received}`)), ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, afterMs: performance.now() - start });
    });
  });
}

/** Writes `text` one character every `everyMs` until the socket closes. */
function trickle(socket: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || i >= text.length) return clearInterval(timer);
    socket.write(text[i++]);
  }, everyMs);
  socket.on('close', () => clearInterval(timer));
}

it('closes a connection whose client sent part of its headers and stalled, after CONNECTION_TIMEOUT_SECONDS', async () => {
  const open = await serve({ connectionTimeoutSeconds: 0.5 });
  const socket = open();
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  const { afterMs } = await untilClosed(socket, 10_000);
  expect(afterMs).toBeGreaterThan(400);
});

it('answers 408 to a client trickling its headers, after HEADERS_TIMEOUT_SECONDS', async () => {
  const open = await serve({ headersTimeoutSeconds: 0.5 });
  const socket = open();
  // A byte every 50 ms: never idle long enough for the connection timeout (60 s by default anyway).
  trickle(socket, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${'y'.repeat(400)}\r\n\r\n`, 50);
  const { received, afterMs } = await untilClosed(socket, 10_000);
  expect(received).toMatch(/^HTTP\/1\.1 408/);
  expect(afterMs).toBeGreaterThan(400);
});

it('answers 408 to a client trickling its body, after REQUEST_TIMEOUT_SECONDS', async () => {
  const open = await serve({ requestTimeoutSeconds: 1, headersTimeoutSeconds: 1 });
  const socket = open();
  socket.write(
    'POST /v1/auth/signInOrRegisterAndSignIn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
  );
  trickle(socket, ' '.repeat(400), 50);
  const { received, afterMs } = await untilClosed(socket, 10_000);
  expect(received).toMatch(/^HTTP\/1\.1 408/);
  expect(afterMs).toBeGreaterThan(900);
});

it('answers a whole request, then closes the idle keep-alive connection after KEEP_ALIVE_TIMEOUT_SECONDS', async () => {
  const open = await serve({ keepAliveTimeoutSeconds: 0.5, connectionTimeoutSeconds: 60 });
  const socket = open();
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
  const { received, afterMs } = await untilClosed(socket, 10_000);
  expect(received).toMatch(/^HTTP\/1\.1 200/);
  expect(received).toContain('{"status":"ok"}');
  expect(afterMs).toBeGreaterThan(400);
});
