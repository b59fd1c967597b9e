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

export interface ApnsClient {
  /**
   * Pushes "this pass changed" to one device. Answers APNs's HTTP status (200 sent; 410 the token is no longer
   * valid; other statuses are Apple's errors).
   * @throws Error when the connection fails
   */
  push(pushToken: string, topic: string): Promise<number>;
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
      return new Promise<number>((resolve, reject) => {
        const req = s.request({
          ':method': 'POST',
          ':path': `/3/device/${encodeURIComponent(pushToken)}`,
          'apns-topic': topic,
          'apns-push-type': 'background',
          'content-type': 'application/json',
        });
        let status = 0;
        req.on('response', (h) => (status = Number(h[':status'])));
        req.on('error', reject);
        req.on('end', () => resolve(status));
        req.resume();
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

/**
 * The local APNs fake of wallet test mode: an HTTP/2 server (cleartext, 127.0.0.1, a free port) that answers 200
 * to every `POST /3/device/<token>` and records it in `pushes`; started on first use.
 */
export function createFakeApns(): {
  pushes: ApnsPush[];
  /** Starts the server once; answers its URL. */
  url(): Promise<string>;
  close(): Promise<void>;
} {
  const pushes: ApnsPush[] = [];
  let server: Promise<Http2Server> | null = null;
  const start = () =>
    new Promise<Http2Server>((resolve) => {
      const s = createServer((req, res) => {
        const match = /^\/3\/device\/([^/]+)$/.exec(req.url);
        req.resume();
        req.on('end', () => {
          if (req.method !== 'POST' || !match) return res.writeHead(404).end();
          pushes.push({
            pushToken: decodeURIComponent(match[1]),
            topic: String(req.headers['apns-topic']),
            at: Date.now(),
          });
          res.writeHead(200).end();
        });
      });
      s.unref();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
  return {
    pushes,
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
