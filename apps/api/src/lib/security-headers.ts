/**
 * Security headers of every response (@fastify/helmet; issue 14 item 6, docs/SECURITY.md).
 *
 * Every response carries `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, a
 * Content-Security-Policy and, when PUBLIC_URL is https, `Strict-Transport-Security`. Three policies:
 * - `page` (the default: resale pages, sandbox checkout and payout pages, the dev outbox, the scanner,
 *   JSON): scripts from this origin, styles from this origin or inline, no plugins, no framing anywhere
 *   (`frame-ancestors 'none'`, `X-Frame-Options: DENY`); no page of this kind has an inline script;
 * - `panel` (the panel document at /en/ and /es/): the same plus inline scripts with the per-response nonce
 *   (`scriptNonce(reply)`), framable only by EMBED_ORIGINS (config `embedOrigins`: 'self' and PUBLIC_URL's
 *   site by default), and, when STRIPE_PUBLISHABLE_KEY is set, Stripe's Connect.js script, frames and images
 *   for the payout tab;
 * - `host` (the demo organiser page at /): the nonce too; loads /embed.js and frames the panel from PUBLIC_URL.
 *
 * A route picks its policy with `config: { securityHeaders: 'panel' | 'host' }` (default `page`). The three
 * `helmet` middlewares are made once at start: @fastify/helmet built a new one on every request (parsing the
 * whole policy each time), and drew a nonce for every answer, JSON included; together about 16 % of the CPU of a
 * `/healthz` answer (decision 028). The `page` policy has no nonce: its headers are collected from its middleware
 * once and copied onto each reply.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.js';
import type { App } from './http.js';

type Directives = Record<string, Array<string | ((req: IncomingMessage, res: ServerResponse) => string)>>;
const NONCE = Symbol('scriptNonce');

/** Sets a fresh nonce on the raw response and returns its CSP source. */
function nonceSource(_req: IncomingMessage, res: ServerResponse): string {
  const nonce = randomBytes(16).toString('base64');
  (res as ServerResponse & { [NONCE]?: string })[NONCE] = nonce;
  return `'nonce-${nonce}'`;
}

/** The nonce inline `<script>` elements of this response must carry. */
export function scriptNonce(reply: FastifyReply): string {
  const nonce = (reply.raw as ServerResponse & { [NONCE]?: string })[NONCE];
  if (!nonce) throw new Error('no CSP nonce on this response');
  return nonce;
}

/** Stripe Connect.js's origins: its script and the frames of its embedded onboarding (the panel's and the console's). */
export const STRIPE_CONNECT = ['https://connect-js.stripe.com', 'https://js.stripe.com'];

/** The settings the headers read: the public URL, Stripe's publishable key, form-action and embed origins. */
export type SecurityHeadersConfig = Pick<
  Config,
  'publicUrl' | 'stripePublishableKey' | 'formActionOrigins' | 'embedOrigins'
>;

function directives(config: SecurityHeadersConfig, kind: 'page' | 'panel' | 'host'): Directives {
  const origin = new URL(config.publicUrl).origin;
  const stripe = kind === 'panel' && config.stripePublishableKey ? STRIPE_CONNECT : [];
  return {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      ...(kind === 'page' ? [] : [nonceSource]),
      ...(kind === 'host' ? [origin] : []),
      ...stripe,
    ],
    // Inline style attributes and injected <style> (toasts) are allowed: CSS cannot run script.
    'style-src': ["'self'", "'unsafe-inline'"],
    // PUBLIC_URL serves the event images and logos, also to the demo host page on another origin.
    'img-src': ["'self'", origin, 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(stripe.length ? ['https://api.stripe.com'] : [])],
    'media-src': ["'self'", 'blob:', 'mediastream:'],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'frame-src': kind === 'host' ? ["'self'", origin] : stripe.length ? ["'self'", ...stripe] : ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'", ...config.formActionOrigins],
    'frame-ancestors': kind === 'panel' ? config.embedOrigins : ["'none'"],
  };
}

/** The policies a route may pick (see the module comment). */
export type SecurityHeadersKind = 'page' | 'panel' | 'host';

/** Helmet options of one policy (see the module comment). */
function helmetOptions(config: SecurityHeadersConfig, kind: SecurityHeadersKind): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: directives(config, kind) },
    // The panel document is framed by organiser sites: frame-ancestors decides, not X-Frame-Options.
    frameguard: kind === 'panel' ? false : { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: config.publicUrl.startsWith('https:') ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    // Organiser pages load /embed.js from this origin (no-cors), so resources may be read cross-origin.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // Stripe onboarding and external checkout may open in a popup that reports back.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    // X-Download-Options only ever meant something to Internet Explorer 8's download dialog: 27 bytes of nothing
    // on every document (issue 9's byte budget counts headers).
    xDownloadOptions: false,
  };
}

/**
 * Headers that only mean something on a document: a script, stylesheet, image or JSON answer does not
 * carry them. Dropping them keeps each asset response about 1 KB lighter (the first screen loads a dozen
 * files; issue 9's byte budget counts headers too). nosniff, Referrer-Policy, CORP and HSTS stay on all.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's security-header policy (lib/security-headers.ts); default `page`. */
    securityHeaders?: SecurityHeadersKind;
  }
}

/**
 * The headers a helmet middleware sets, collected once: for a policy without a nonce they are the same on every
 * answer, so they are made at start and copied onto each reply (Fastify writes them with the status line)
 * instead of running helmet's twelve middlewares, each a `setHeader`, per answer (decision 028).
 */
function staticHeaders(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  // The cast: a stand-in with the only two methods helmet's middlewares call on the response.
  const res = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  middleware({} as IncomingMessage, res, () => undefined);
  return headers;
}

/** Sets each route's policy on every answer; non-HTML answers keep only the headers that apply to them. */
export function registerSecurityHeaders(app: App, config: SecurityHeadersConfig): void {
  const policies = Object.fromEntries(
    (['page', 'panel', 'host'] as const).map((kind) => [kind, helmet(helmetOptions(config, kind))]),
  ) as Record<SecurityHeadersKind, ReturnType<typeof helmet>>;
  const pageHeaders = staticHeaders(policies.page);
  app.addHook('onRequest', (req, reply, done) => {
    const kind = req.routeOptions.config.securityHeaders ?? 'page';
    if (kind === 'page') {
      reply.headers(pageHeaders);
      done();
      return;
    }
    try {
      policies[kind](req.raw, reply.raw, () => done());
    } catch (err) {
      done(err as Error);
    }
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html'))
      for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
    done(null, payload);
  });
}
