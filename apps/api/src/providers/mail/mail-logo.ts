/**
 * An organisation's logo travels inside its e-mails (issue 41 point 9: no remote resource in a mail). A mail client
 * that loaded `<img src="https://organiser.example/logo.svg">` would tell the organiser's server who opened the mail,
 * and when; so the logo is fetched once, in the background, and each mail carries it as an inline PNG part
 * (`cid:`). Decision 025, "No remote resource".
 *
 * - Whoever writes an organisation's logo URL (the admin's create, the organisation API's and the console's PATCH,
 *   the demo seed) enqueues a `mail.logo` job in the same transaction (`enqueueLogoFetch`); nothing is fetched in
 *   the request.
 * - The job (`createLogoJobHandler`, the queue's `other` lane) fetches the URL (a path under `/public/`, the demo's
 *   logo, is read from this service's own files; another path is resolved on PUBLIC_URL):
 *   at most `LOGO_FETCH_TIMEOUT_MS` for the whole fetch and `LOGO_MAX_BYTES` of body, `https:` only unless local URLs
 *   are allowed (LOGO_ALLOW_LOCAL_URLS, outside production), no redirects, and the SSRF guard of webhook deliveries
 *   (lib/outbound-guard.ts: loopback, private and link-local addresses refused at the socket's lookup). The bytes go
 *   through the avatars' decoding path (providers/images: sniffed by their bytes, `AVATAR_MAX_PIXELS`, the SVG policy
 *   and CPU budget, a killed child process past the deadline) and come out as a `LOGO_SIZE` px square PNG (contain,
 *   transparent), kept with the URL it came from (table `organisation_logos`).
 * - A mail wears the PNG only while that URL is still the organisation's logo; until it is fetched, or when it was
 *   refused, the header shows the name alone. A refused logo (not allowed, too big, not an image, outside the SVG
 *   policy, an HTTP 4xx or a redirect) is kept as a failed job at once; an unreachable server, a timeout or a 5xx is
 *   retried with the queue's backoff.
 */
import { open } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { relative, resolve } from 'node:path';
import { AVATAR_MAX_PIXELS } from '@tp/contract';
import * as z from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { guardedLookup, outboundUrlAllowed } from '../../lib/outbound-guard.js';
import { cpuBudgetMs, createImagePool, declaredPixels, sniffImage, tooManyScans } from '../images/image-pool.js';
import { withJobLogFields } from '../jobs/job-log.js';
import { enqueueJobs, permanentJobFailure, type JobHandler } from '../jobs/job-queue.js';
import { mailLogoRepository as repo } from './mail-logo.repository.js';

/** The job kind that fetches and draws an organisation's mail logo. */
export const LOGO_JOB = 'mail.logo';
/** Longest a logo fetch may take, connect to last byte, milliseconds. */
export const LOGO_FETCH_TIMEOUT_MS = 5000;
/** Largest logo fetched, bytes (the SVG policy's own bound too). */
export const LOGO_MAX_BYTES = 512 * 1024;
/** Side of the PNG a mail carries, pixels (shown at 40 px: sharp on 2x screens). */
export const LOGO_SIZE = 80;

/** The content id of the logo's inline part: the HTML's `<img src="cid:…">`. */
export const LOGO_CID = 'organisation-logo@ticket-panel';

const logoPayload = z.object({ organisationId: z.number().int(), url: z.string() });

/**
 * Enqueues the fetch of an organisation's logo, due at `at` (the caller's clock, UTC), in `db` (the transaction that
 * writes the URL), when there is one (`logoUrl` as stored: absolute https, or a path on this service).
 */
export async function enqueueLogoFetch(
  db: DbOrTx,
  at: Date,
  organisationId: number,
  logoUrl: string | null,
): Promise<void> {
  if (!logoUrl) return;
  await enqueueJobs(db, [{ kind: LOGO_JOB, payload: logoPayload.parse({ organisationId, url: logoUrl }), runAt: at }]);
}

/** Why a logo was refused for good (a retry cannot help). */
export type LogoRefusal =
  | 'url_not_allowed'
  | 'forbidden_address'
  | 'redirect'
  | 'http_status'
  | 'too_large'
  | 'not_an_image'
  | 'too_many_pixels'
  | 'svg_unsupported'
  | 'too_costly'
  | 'invalid';

/** A logo refused for good (see `LogoRefusal`). */
export class LogoRefused extends Error {
  constructor(readonly reason: LogoRefusal) {
    super(`logo refused: ${reason}`);
  }
}

/**
 * GETs a logo's bytes under the bounds of the module comment.
 * @param opts.allowLocal `http:` on loopback and private addresses allowed (tests, local development)
 * @param opts.ca certificates trusted besides the system's (tests' own HTTPS server)
 * @throws LogoRefused for a URL, address, answer or size that will not change on a retry; Error otherwise
 *   (`logo fetch timed out after N ms`, a refused connection, an HTTP 5xx)
 */
export function fetchLogoBytes(
  url: string,
  opts: { allowLocal: boolean; timeoutMs?: number; maxBytes?: number; ca?: string },
): Promise<Buffer> {
  const timeoutMs = opts.timeoutMs ?? LOGO_FETCH_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? LOGO_MAX_BYTES;
  if (!outboundUrlAllowed(url, opts.allowLocal)) return Promise.reject(new LogoRefused('url_not_allowed'));
  const target = new URL(url);
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (err) reject(err);
      else resolve(body!);
    };
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(target, {
      method: 'GET',
      headers: { accept: 'image/*', 'user-agent': 'TicketPanel-Logo/1' },
      ...(opts.allowLocal ? {} : { lookup: guardedLookup }),
      ...(opts.ca && target.protocol === 'https:' ? { ca: opts.ca } : {}),
    });
    // One bound for everything (connect, headers, body): a server that trickles bytes is cut at the same time.
    const timer = setTimeout(() => finish(new Error(`logo fetch timed out after ${timeoutMs} ms`)), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(err.code === 'EFORBIDDENADDRESS' ? new LogoRefused('forbidden_address') : err),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) return finish(new LogoRefused('redirect'));
      if (status >= 500) return finish(new Error(`logo fetch answered HTTP ${status}`));
      if (status !== 200) return finish(new LogoRefused('http_status'));
      if (Number(res.headers['content-length'] ?? 0) > maxBytes) return finish(new LogoRefused('too_large'));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return finish(new LogoRefused('too_large'));
        chunks.push(chunk);
      });
      res.on('end', () => finish(null, Buffer.concat(chunks)));
      res.on('error', (err) => finish(err));
    });
    req.end();
  });
}

/**
 * The bytes of `/public/<file>` from `publicDir` (this service's static files, the demo organisation's logo), at most
 * `maxBytes`. @throws LogoRefused `url_not_allowed` (outside the directory, not a file), `too_large`
 */
async function readPublicFile(publicDir: string, path: string, maxBytes: number): Promise<Buffer> {
  const root = resolve(publicDir);
  const file = resolve(root, decodeURIComponent(path.slice('/public/'.length).split(/[?#]/)[0]));
  const inside = relative(root, file);
  if (!inside || inside.startsWith('..')) throw new LogoRefused('url_not_allowed');
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    throw new LogoRefused('url_not_allowed');
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new LogoRefused('url_not_allowed');
    if (stat.size > maxBytes) throw new LogoRefused('too_large');
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The `mail.logo` job handler (see the module comment) and the close of its decoding process.
 * @param deps.publicUrl PUBLIC_URL, on which a logo path is resolved
 * @param deps.publicDir the directory served at `/public/` (PUBLIC_DIR), where a `/public/…` logo is read
 * @param deps.allowLocal LOGO_ALLOW_LOCAL_URLS
 * @param deps.decodeDeadlineMs the decoding's deadline (the avatars', AVATAR_DEADLINE_SECONDS), milliseconds
 * @param deps.changed called with the organisation's slug once its mail logo changed (stored or dropped)
 * @param deps.imageDecodeWorker the decoding process's module (`AppDeps.imageDecodeWorker`); default image-pool's
 */
export function createLogoJobHandler(deps: {
  db: DbOrTx;
  publicUrl: string;
  publicDir: string;
  allowLocal: boolean;
  decodeDeadlineMs: number;
  now: () => Date;
  ca?: string;
  changed?: (slug: string) => void;
  imageDecodeWorker?: string;
}): { handler: JobHandler; close: () => Promise<void> } {
  // One logo at a time (the `other` lane runs one job at a time anyway); no process until the first logo.
  const pool = createImagePool({ maxProcesses: 1, workerFile: deps.imageDecodeWorker });

  /** The logo's PNG, decoded and drawn in a child process. @throws LogoRefused */
  async function draw(bytes: Buffer): Promise<Buffer> {
    const kind = await sniffImage(bytes);
    if (!kind) throw new LogoRefused('not_an_image');
    const pixels = kind === 'svg' ? null : declaredPixels(bytes);
    if ((pixels ?? 0) > AVATAR_MAX_PIXELS) throw new LogoRefused('too_many_pixels');
    if (tooManyScans(kind, bytes)) throw new LogoRefused('not_an_image');
    const task = {
      kind,
      bytes,
      maxPixels: AVATAR_MAX_PIXELS,
      size: LOGO_SIZE,
      cpuBudgetMs: cpuBudgetMs(kind, pixels),
      output: 'logo' as const,
    };
    let result;
    try {
      result = await pool.run(task, AbortSignal.timeout(deps.decodeDeadlineMs));
    } catch {
      // Past the deadline (the process was killed) or the process died.
      throw new LogoRefused('too_costly');
    }
    if (!result.ok) throw new LogoRefused(result.reason);
    return Buffer.from(result.image);
  }

  /** The logo's bytes: a file of this service's, or fetched. @throws LogoRefused, Error (see `fetchLogoBytes`) */
  async function logoBytes(url: string): Promise<Buffer> {
    if (url.startsWith('/public/')) return readPublicFile(deps.publicDir, url, LOGO_MAX_BYTES);
    let absolute: string;
    try {
      absolute = new URL(url, `${deps.publicUrl}/`).href;
    } catch {
      throw new LogoRefused('url_not_allowed');
    }
    return fetchLogoBytes(absolute, { allowLocal: deps.allowLocal, ca: deps.ca });
  }

  const handler: JobHandler = async (payload) => {
    const { organisationId, url } = logoPayload.parse(payload);
    const org = await repo.organisationLogoUrl(deps.db, organisationId);
    // The organisation is gone, or its logo changed since: the job of the newer URL does the work.
    if (!org || org.logoUrl !== url) return;
    try {
      const png = await draw(await logoBytes(url));
      await repo.store(deps.db, organisationId, url, png, deps.now());
      deps.changed?.(org.slug);
    } catch (err) {
      const failure = withJobLogFields(err, { organisationId });
      if (!(err instanceof LogoRefused)) throw failure;
      await repo.drop(deps.db, organisationId, url);
      deps.changed?.(org.slug);
      throw permanentJobFailure(failure);
    }
  };
  return { handler, close: () => pool.destroy() };
}
