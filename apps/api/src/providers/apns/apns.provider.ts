/**
 * Apple Push Notification service for wallet passes (issue 22, decision 029): a pass update push is an HTTP/2
 * `POST /3/device/<pushToken>` with `apns-topic: <passTypeIdentifier>` and an empty JSON body `{}`; the device
 * then asks the pass update web service which passes changed. Real pushes authenticate with the Pass Type ID
 * certificate and key (TLS client certificate) at `https://api.push.apple.com`; wallet test mode pushes to a
 * local HTTP/2 fake ({@link createFakeApns}) that records what it received.
 */
import { connect, createServer, type ClientHttp2Session, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';

/** One push as the fake received it. */
export interface ApnsPush {
  pushToken: string;
  topic: string;
  /** When it arrived (ms since epoch, the machine's clock). */
  at: number;
}

/** APNs's answer to one push: its HTTP status and, on an error, the `reason` of its JSON body. */
export interface ApnsAnswer {
  /** 200 sent; 400 a bad request (`BadDeviceToken`, …); 410 the token is no longer active; others Apple's errors. */
  status: number;
  /** The error body's `reason` (`BadDeviceToken`, `Unregistered`, …), when APNs gave one. */
  reason?: string;
}

/**
 * True when APNs says the push token will never work again: 410 (`Unregistered`, the device removed the pass or
 * the app) or 400 `BadDeviceToken`. Its registrations are then deleted (decision 029). Another 400 (`BadTopic`,
 * …) is our configuration, not the device's: the token is kept.
 */
export function deadPushToken(answer: ApnsAnswer): boolean {
  return answer.status === 410 || (answer.status === 400 && answer.reason === 'BadDeviceToken');
}

export interface ApnsClient {
  /**
   * Pushes "this pass changed" to one device. Answers APNs's HTTP status and error reason ({@link ApnsAnswer}).
   * @throws Error when the connection fails
   */
  push(pushToken: string, topic: string): Promise<ApnsAnswer>;
  /** Closes the HTTP/2 session (and the fake's server). */
  close(): Promise<void>;
}

/** Bounds on talking to APNs (issue 39), milliseconds. */
export interface ApnsTimeouts {
  /** To open the HTTP/2 session (TCP, TLS, SETTINGS). */
  connectMs: number;
  /** One push from start to answer, the session's opening included. */
  requestMs: number;
}

/** The timeouts when none are given (the config's defaults, APNS_CONNECT_TIMEOUT_SECONDS and APNS_TIMEOUT_SECONDS). */
const DEFAULT_APNS_TIMEOUTS: ApnsTimeouts = { connectMs: 10_000, requestMs: 10_000 };

/**
 * An APNs client over one reused HTTP/2 session.
 * A session that does not open within `timeouts.connectMs`, or a push that gets no answer within
 * `timeouts.requestMs`, is destroyed (Apple's side stopped answering, or the connection was dropped silently) and
 * the push rejects with `apns: … timed out`; the next push opens a new session. So a hung APNs costs a push its
 * timeout, never more.
 * @param target `url` (https://api.push.apple.com, or the fake's http:// URL) and the TLS client certificate
 *   and key (PEM) for Apple; resolved when first used (the fake starts lazily).
 */
export function createApnsClient(
  target: () => Promise<{ url: string; cert?: Buffer; key?: Buffer; passphrase?: string }>,
  timeouts: ApnsTimeouts = DEFAULT_APNS_TIMEOUTS,
): ApnsClient {
  let session: ClientHttp2Session | null = null;
  /** The session being opened: resolves once connected, rejects when the connect bound passes. */
  let opening: Promise<ClientHttp2Session> | null = null;

  /** Destroys `s` (with `err` for its streams) and forgets it, so the next push opens a new session. */
  function drop(s: ClientHttp2Session, err?: Error) {
    if (session === s) session = null;
    if (!s.destroyed) s.destroy(err);
  }

  async function open(): Promise<ClientHttp2Session> {
    if (session && !session.closed && !session.destroyed) return session;
    opening ??= (async () => {
      const { url, ...tls } = await target();
      const s = connect(url, tls);
      s.on('error', () => drop(s));
      s.on('goaway', () => drop(s));
      s.on('close', () => drop(s));
      s.unref();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          const err = new Error(`apns: connect timed out after ${timeouts.connectMs} ms`);
          drop(s, err);
          reject(err);
        }, timeouts.connectMs);
        s.once('connect', () => {
          clearTimeout(timer);
          resolve();
        });
        s.once('close', () => {
          clearTimeout(timer);
          reject(new Error('apns: connection closed before it opened'));
        });
      });
      session = s;
      return s;
    })().finally(() => (opening = null));
    return opening;
  }

  return {
    async push(pushToken, topic) {
      const started = Date.now();
      const s = await open();
      const left = Math.max(1, timeouts.requestMs - (Date.now() - started));
      return new Promise<ApnsAnswer>((resolve, reject) => {
        const req = s.request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(pushToken)}`,
          'apns-topic': topic,
          'apns-push-type': 'background',
          'content-type': 'application/json',
        });
        let status = 0;
        let body = '';
        req.setEncoding('utf8');
        const timer = setTimeout(() => {
          const err = new Error(`apns: push timed out after ${timeouts.requestMs} ms`);
          reject(err);
          // No answer in time: the session is taken as dead (a silently dropped connection looks like this).
          drop(s, err);
        }, left);
        req.on('response', (h) => (status = Number(h[':status'])));
        // APNs's error body is a small JSON object; more than 4 KiB of it is not read.
        req.on('data', (chunk: string) => (body = (body + chunk).slice(0, 4096)));
        req.on('error', (err: Error) => {
          clearTimeout(timer);
          reject(err);
        });
        req.on('end', () => {
          clearTimeout(timer);
          resolve({ status, ...reasonOf(body) });
        });
        req.end('{}');
      });
    },
    async close() {
      const s = session;
      session = null;
      if (s && !s.closed) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

/** The `reason` of an APNs error body (`{"reason":"BadDeviceToken"}`), when it has one. */
function reasonOf(body: string): { reason?: string } {
  try {
    const reason = (JSON.parse(body) as { reason?: unknown } | null)?.reason;
    return typeof reason === 'string' ? { reason } : {};
  } catch {
    return {};
  }
}

/**
 * The local APNs fake of wallet test mode: an HTTP/2 server (cleartext, 127.0.0.1, a free port) that answers 200
 * to every `POST /3/device/<token>` and records it in `pushes`, but answers a token of `refuse` with its status
 * and `{ reason }` body, as APNs does (a test puts 410 `Unregistered` or 400 `BadDeviceToken` there); started on
 * first use.
 */
export function createFakeApns(): {
  pushes: ApnsPush[];
  /** Tokens the fake refuses, with the answer it gives (still recorded in `pushes`). */
  refuse: Map<string, Required<ApnsAnswer>>;
  /** Starts the server once; answers its URL. */
  url(): Promise<string>;
  close(): Promise<void>;
} {
  const pushes: ApnsPush[] = [];
  const refuse = new Map<string, Required<ApnsAnswer>>();
  let server: Promise<Http2Server> | null = null;
  const start = () =>
    new Promise<Http2Server>((resolve) => {
      const s = createServer((req, res) => {
        const match = /^\/3\/device\/([^/]+)$/.exec(req.url);
        req.resume();
        req.on('end', () => {
          if (req.method !== 'POST' || !match) return res.writeHead(404).end();
          const pushToken = decodeURIComponent(match[1]);
          pushes.push({ pushToken, topic: String(req.headers['apns-topic']), at: Date.now() });
          const refused = refuse.get(pushToken);
          if (refused)
            return res
              .writeHead(refused.status, { 'content-type': 'application/json' })
              .end(JSON.stringify({ reason: refused.reason }));
          res.writeHead(200).end();
        });
      });
      s.unref();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
  return {
    pushes,
    refuse,
    async url() {
      server ??= start();
      return `http://127.0.0.1:${((await server).address() as AddressInfo).port}`;
    },
    async close() {
      const s = server && (await server);
      server = null;
      if (s) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}
