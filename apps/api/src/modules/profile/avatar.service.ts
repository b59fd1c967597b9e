/**
 * Avatar upload (spec sections 2 Settings, 5 Avatar formats). Accepts HEIC, WEBP, SVG, PNG and JPG,
 * recognised by their bytes (never by name or declared type), at most `AVATAR_MAX_BYTES`. Every avatar
 * is re-encoded to WebP of at most 512x512 px with metadata stripped; the original bytes are never
 * stored or served.
 *
 * Hostile images (issue 14) are handled in three steps:
 * 1. on the main thread, cheap header reads only: the declared size (image-size: PNG, JPG, WEBP and
 *    every `ispe` of a HEIC) over `AVATAR_MAX_PIXELS` is refused;
 * 2. the SVG policy (avatar.svg-policy.ts, decided on the parsed XML and CSS: filters, scripts, images,
 *    external references, too many elements) and decoding run in a pool of child processes (tinypool, `AVATAR_CONCURRENCY` at once, a bounded
 *    queue, one fresh process per upload, see avatar.worker.ts), so neither the event loop nor the
 *    server's libuv thread pool does image work;
 * 3. each upload has a deadline (config `avatarDeadlineMs`, queue wait included): when it passes, the
 *    child process is killed, which ends its libvips/librsvg/libheif work at once; an SVG also has a CPU budget
 *    (`SVG_CPU_BUDGET_MS`) counted by its process from when it takes the task (issue 39 item 9).
 *
 * Which upload gets a process is decided by the fair queue of avatar.scheduler.ts (cheapest address first, a full
 * queue refused or pushed out by cost, an address that spent a full budget stopped for a cheaper one), never by
 * tinypool's own queue: the pool runs at most AVATAR_CONCURRENCY tasks, the ones the scheduler started. Nothing is
 * parsed on the main thread before a process takes the upload (issue 19, break 1: the parsing of uploads that were
 * refused anyway delayed every other request): sniffing and the size check read a few header bytes.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Tinypool } from 'tinypool';
import { imageSize } from 'image-size';
import { fileTypeFromBuffer } from 'file-type';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import type { StorageProvider } from '../../providers/storage/storage.provider.js';
import type { AvatarResult, AvatarTask } from './avatar.worker.js';
import { createAvatarScheduler } from './avatar.scheduler.js';

/** Uploads decoded at once (child processes). */
export const AVATAR_CONCURRENCY = 2;
/** Uploads waiting for a free process before new ones are refused with `api.profile.avatar_busy`. */
const MAX_QUEUE = 8;
/**
 * CPU one SVG may cost its decoding process, milliseconds. What the SVG policy admits costs far less: a plain
 * avatar about 50 ms, 500 blended paths 300 ms, 150 gradient circles (the policy's most) 420 ms; a 58 KB polyline
 * of round joins cost 9,500 ms before this budget (measured on this project's 2-core machine). It is also the cost
 * an address must have spent before its running upload is stopped for a cheaper one (avatar.scheduler.ts).
 */
export const SVG_CPU_BUDGET_MS = 750;
/** Half-life of an address's decoding cost in the fair queue, milliseconds. */
const COST_HALF_LIFE_MS = 60_000;
/**
 * Decoding cost at which an address's uploads are refused (429) until it decays, milliseconds: four SVG budgets,
 * or a dozen ordinary avatars in a minute.
 */
const ADDRESS_MAX_COST_MS = 4 * SVG_CPU_BUDGET_MS;
const SIZE = 512;

/** The message key of each reason the worker refuses an image for. */
const REFUSALS = {
  invalid: 'api.profile.avatar_invalid',
  too_costly: 'api.profile.avatar_timeout',
  too_many_pixels: 'api.profile.avatar_too_many_pixels',
  svg_unsupported: 'api.profile.avatar_svg_unsupported',
} as const;

/**
 * True when the bytes are an SVG document (XML prolog, comments or doctype, then `<svg`). One pass over the first
 * 4 KiB: each comment is skipped with `indexOf` (a regular expression with a repeated comment group backtracked
 * exponentially on a run of empty comments: 183 bytes held the event loop 8 s; issue 39, fourth re-audit).
 */
export function looksLikeSvg(bytes: Buffer): boolean {
  let head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  const prolog = /^<\?xml[^>]*>/i.exec(head);
  if (prolog) head = head.slice(prolog[0].length).trimStart();
  while (head.startsWith('<!--')) {
    const end = head.indexOf('-->', 4);
    if (end < 0) return false;
    head = head.slice(end + 3).trimStart();
  }
  const doctype = /^<!DOCTYPE svg[^>]*>/i.exec(head);
  if (doctype) head = head.slice(doctype[0].length).trimStart();
  return /^<svg[\s>]/i.test(head);
}

/** The kind of image the bytes hold, or null when not an allowed format. */
export async function sniffAvatar(bytes: Buffer): Promise<AvatarTask['kind'] | null> {
  const type = await fileTypeFromBuffer(bytes);
  // An SVG with an XML prolog (Inkscape's and Illustrator's default) is `xml` to file-type.
  if (type && type.ext !== 'xml') {
    if (type.ext === 'png' || type.ext === 'jpg' || type.ext === 'webp') return type.ext;
    if (type.ext === 'heic' || type.mime === 'image/heic' || type.mime === 'image/heif') return 'heic';
    return null;
  }
  return looksLikeSvg(bytes) ? 'svg' : null;
}

/** The largest width × height a raster header declares (every image of a HEIC), or null when unreadable. */
function declaredPixels(bytes: Buffer): number | null {
  try {
    const size = imageSize(bytes);
    const images = size.images ?? [size];
    return Math.max(...images.map((i) => (i.width ?? 0) * (i.height ?? 0)));
  } catch {
    // Unreadable here: sharp and libheif check the size again in the worker before decoding.
    return null;
  }
}

/**
 * What decoding an upload is expected to cost, for its place in the fair queue (avatar.scheduler.ts), milliseconds:
 * a raster image about 1 ms of CPU per 20,000 declared pixels (a 12-megapixel photo about 600 ms; what it costs
 * follows its pixels, at most 2,000 ms at AVATAR_MAX_PIXELS); an SVG ten budgets whatever its size, which ranks
 * every SVG behind every raster image (and an address's cost up to its ceiling): what an SVG draws cannot be told
 * before it is drawn (issue 39, fifth re-run: 1,359 bytes of blended `<use>` drew for 3.1 s, so an estimate from
 * its size put it ahead of every photo, and photos from other addresses were refused 5 of 5).
 */
export function expectedCostMs(kind: AvatarTask['kind'], pixels: number | null): number {
  if (kind === 'svg') return 10 * SVG_CPU_BUDGET_MS;
  return (pixels ?? 0) / 20_000;
}

/** The child process entry: the compiled .js next to this module, or the .ts source run through tsx. */
function workerEntry() {
  const ts = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(`./avatar.worker.${ts ? 'ts' : 'js'}`, import.meta.url));
  return { filename, execArgv: ts ? ['--import', import.meta.resolve('tsx')] : [] };
}

export function createAvatarService(deps: {
  storage: StorageProvider;
  /** Per-upload deadline, milliseconds, queue wait included (config `avatarDeadlineMs`). */
  deadlineMs: number;
}) {
  const pool = new Tinypool({
    ...workerEntry(),
    runtime: 'child_process',
    serialization: 'advanced',
    minThreads: 0,
    maxThreads: AVATAR_CONCURRENCY,
    // The scheduler starts at most AVATAR_CONCURRENCY tasks: tinypool's queue stays empty.
    maxQueue: Infinity,
    isolateWorkers: true,
    // The child gets no secrets: only what the image libraries need.
    env: {},
  });
  const scheduler = createAvatarScheduler({
    concurrency: AVATAR_CONCURRENCY,
    maxQueue: MAX_QUEUE,
    deadlineMs: deps.deadlineMs,
    preemptMarginMs: SVG_CPU_BUDGET_MS,
    halfLifeMs: COST_HALF_LIFE_MS,
    maxCostMs: ADDRESS_MAX_COST_MS,
  });

  /** Decodes in the pool when the scheduler gives the upload a process. */
  async function decode(address: string, task: AvatarTask, estimateMs: number): Promise<AvatarResult> {
    try {
      return await scheduler.run(
        address,
        async (signal) => {
          const result = (await pool.run(task, { signal })) as AvatarResult;
          return { value: result, cpuMs: result.cpuMs };
        },
        estimateMs,
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('api.profile.avatar_invalid');
    }
  }

  return {
    /**
     * Validates, re-encodes and stores an avatar; returns its public path.
     * @throws AppError `api.profile.avatar_too_large` (413: over AVATAR_MAX_BYTES),
     *   `api.profile.avatar_invalid` (400: not an allowed format or undecodable),
     *   `api.profile.avatar_too_many_pixels` (422: over AVATAR_MAX_PIXELS),
     *   `api.profile.avatar_svg_unsupported` (422: outside the SVG policy),
     *   `api.profile.avatar_timeout` (422: not done within the deadline, or an SVG over SVG_CPU_BUDGET_MS),
     *   `api.profile.avatar_busy` (429: the fair queue refused it or stopped it for a cheaper address).
     * @param address the client's address key (`ipKey`), for the fair queue.
     */
    async store(bytes: Buffer, address: string): Promise<string> {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('api.profile.avatar_too_large');
      const kind = await sniffAvatar(bytes);
      if (!kind) throw new AppError('api.profile.avatar_invalid');
      const pixels = kind === 'svg' ? null : declaredPixels(bytes);
      if ((pixels ?? 0) > AVATAR_MAX_PIXELS) throw new AppError('api.profile.avatar_too_many_pixels');
      const task = { kind, bytes, maxPixels: AVATAR_MAX_PIXELS, size: SIZE, svgCpuBudgetMs: SVG_CPU_BUDGET_MS };
      const result = await decode(address, task, expectedCostMs(kind, pixels));
      if (!result.ok) throw new AppError(REFUSALS[result.reason]);
      return deps.storage.put('avatars', `${randomUUID()}.webp`, Buffer.from(result.webp));
    },
    /**
     * The decoding pool right now (metrics, decision 031): `busy` uploads decoding (at most AVATAR_CONCURRENCY),
     * `queued` uploads waiting for a process in the fair queue.
     */
    poolStats: () => scheduler.stats(),
    /** Ends the decoding processes (app shutdown). */
    async close(): Promise<void> {
      await pool.destroy();
    },
  };
}
export type AvatarService = ReturnType<typeof createAvatarService>;
