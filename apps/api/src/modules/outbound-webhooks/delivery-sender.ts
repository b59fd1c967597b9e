/**
 * The HTTP side of a webhook delivery, guarded against SSRF (issue 12):
 * - only `https:` URLs, but for `http:` on a loopback host when local URLs are allowed
 *   (WEBHOOK_ALLOW_LOCAL_URLS; default outside production);
 * - unless local URLs are allowed, the host's addresses are checked after DNS resolution, at connect time (the
 *   `lookup` of the socket, so a rebinding between check and connect cannot slip through): loopback, private,
 *   link-local, CGNAT, multicast and reserved addresses are refused;
 * - one bound for the whole attempt (WEBHOOK_TIMEOUT_SECONDS), redirects are not followed (a 3xx is a failure),
 *   and only the first 256 characters of the answer's body are kept (the rest is never read into memory).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../lib/app-error.js';

/** The first characters of an answer's body that a delivery keeps. */
export const RESPONSE_PREFIX_CHARS = 256;

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is one a production webhook may not reach (private, loopback, link-local...). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? blocked.check(mapped[1], 'ipv4') : blocked.check(address, 'ipv6');
  }
  return true;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Checks a webhook URL's form when it is registered (the addresses are checked again at each connect).
 * @throws AppError `api.org.webhook_url_not_allowed` when not https (or http on loopback with local URLs
 *   allowed), when it carries credentials, or when it names a forbidden IP literal in production.
 */
export function checkWebhookEndpointUrl(raw: string, allowLocal: boolean): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('api.org.webhook_url_not_allowed');
  }
  const httpOk = url.protocol === 'http:' && allowLocal && LOOPBACK_HOSTS.has(url.hostname);
  if (!(url.protocol === 'https:' || httpOk)) throw new AppError('api.org.webhook_url_not_allowed');
  if (url.username || url.password) throw new AppError('api.org.webhook_url_not_allowed');
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowLocal && (url.hostname === 'localhost' || (isIP(literal) && isForbiddenAddress(literal))))
    throw new AppError('api.org.webhook_url_not_allowed');
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A socket `lookup` that resolves as usual, then refuses forbidden addresses (production SSRF guard). */
export function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  dnsLookup(hostname, { all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad || addresses.length === 0) {
      const e: NodeJS.ErrnoException = new Error(`webhook host ${hostname} resolves to a forbidden address`);
      e.code = 'EFORBIDDENADDRESS';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** The outcome of one attempt: a status code when an answer came, else an error. */
export interface SendResult {
  statusCode: number | null;
  error: string | null;
  /** At most RESPONSE_PREFIX_CHARS characters of the body. */
  responsePrefix: string | null;
  durationMs: number;
}

/**
 * POSTs one delivery. Never throws: every failure is a result (`error`), so the worker records it.
 * @param p.timeoutMs bound on the whole attempt (connect, send, answer's head and body prefix).
 * @param p.allowLocal skip the address check (tests, local development).
 */
export function sendOutboundDelivery(p: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowLocal: boolean;
}): Promise<SendResult> {
  const started = performance.now();
  const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      checkWebhookEndpointUrl(p.url, p.allowLocal);
      url = new URL(p.url);
    } catch {
      return resolve(done({ statusCode: null, error: 'url_not_allowed', responsePrefix: null }));
    }
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: {
        ...p.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(p.body),
        'user-agent': 'TicketPanel-Webhooks/1',
      },
      timeout: p.timeoutMs,
      signal: AbortSignal.timeout(p.timeoutMs),
      ...(p.allowLocal ? {} : { lookup: guardedLookup }),
    });
    let settled = false;
    const finish = (r: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve(done(r));
    };
    req.on('timeout', () => finish({ statusCode: null, error: 'timeout', responsePrefix: null }));
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        error:
          err.name === 'AbortError' || err.name === 'TimeoutError'
            ? 'timeout'
            : (err.code ?? err.message).slice(0, 200),
        responsePrefix: null,
      }),
    );
    req.on('response', (res) => {
      let text = '';
      const statusCode = res.statusCode ?? 0;
      const end = () => finish({ statusCode, error: null, responsePrefix: text.slice(0, RESPONSE_PREFIX_CHARS) });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.length >= RESPONSE_PREFIX_CHARS) end();
      });
      res.on('end', end);
      res.on('error', end);
    });
    req.end(p.body);
  });
}
