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

/**
 * An APNs client over one reused HTTP/2 session.
 * @param target `url` (https://api.push.apple.com, or the fake's http:// URL) and the TLS client certificate
 *   and key (PEM) for Apple; resolved when first used (the fake starts lazily).
 */
export function createApnsClient(
  target: () => Promise<{ url: string; cert?: Buffer; key?: Buffer; passphrase?: string }>,
): ApnsClient {
  let session: ClientHttp2Session | null = null;
  async function open(): Promise<ClientHttp2Session> {
    if (session && !session.closed && !session.destroyed) return session;
    const { url, ...tls } = await target();
    const s = connect(url, tls);
    s.on('error', () => s.destroy());
    s.unref();
    session = s;
    return s;
  }
  return {
    async push(pushToken, topic) {
      const s = await open();
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
        req.on('response', (h) => (status = Number(h[':status'])));
        // APNs's error body is a small JSON object; more than 4 KiB of it is not read.
        req.on('data', (chunk: string) => (body = (body + chunk).slice(0, 4096)));
        req.on('error', reject);
        req.on('end', () => resolve({ status, ...reasonOf(body) }));
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
