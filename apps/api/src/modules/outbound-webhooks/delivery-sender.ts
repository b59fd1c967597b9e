/**
 * The HTTP side of a webhook delivery, guarded against SSRF (issue 12):
 * - only `https:` URLs, but for `http:` on a loopback host when local URLs are allowed
 *   (WEBHOOK_ALLOW_LOCAL_URLS; default outside production);
 * - unless local URLs are allowed, the host's addresses are checked after DNS resolution, at connect time (the
 *   `lookup` of the socket, so a rebinding between check and connect cannot slip through): loopback, private,
 *   link-local, CGNAT, multicast and reserved addresses are refused (the guard of lib/outbound-guard.ts, shared
 *   with the organisation logo's fetch);
 * - one bound for the whole attempt (WEBHOOK_TIMEOUT_SECONDS), redirects are not followed (a 3xx is a failure),
 *   and only the first 256 characters of the answer's body are kept (the rest is never read into memory).
 */
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../../lib/app-error.js';
import { guardedLookup, outboundUrlAllowed } from '../../lib/outbound-guard.js';

/** The first characters of an answer's body that a delivery keeps. */
export const RESPONSE_PREFIX_CHARS = 256;

/**
 * Checks a webhook URL's form when it is registered (the addresses are checked again at each connect by
 * lib/outbound-guard.ts `guardedLookup`).
 * @throws AppError `api.org.webhook_url_not_allowed` when not https (or http on loopback with local URLs
 *   allowed), when it carries credentials, or when it names a forbidden IP literal in production.
 */
export function checkWebhookEndpointUrl(raw: string, allowLocal: boolean): void {
  if (!outboundUrlAllowed(raw, allowLocal)) throw new AppError('api.org.webhook_url_not_allowed');
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
