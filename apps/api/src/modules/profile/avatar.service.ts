/**
 * Avatar upload (spec sections 2 Settings, 5 Avatar formats). Accepts HEIC, WEBP, SVG, PNG and JPG,
 * recognised by their bytes (never by name or declared type), at most `AVATAR_MAX_BYTES`. Every avatar
 * is re-encoded to WebP of at most 512x512 px with metadata stripped; the original bytes are never
 * stored or served.
 *
 * Hostile images (issue 14) are handled in three steps:
 * 1. on the main thread, cheap header reads only: the declared size (image-size: PNG, JPG, WEBP and
 *    every `ispe` of a HEIC) over `AVATAR_MAX_PIXELS` is refused;
 * 2. the SVG policy (providers/images/svg-policy.ts, decided on the parsed XML and CSS: filters, scripts, images,
 *    external references, too many elements) and decoding run in a pool of child processes (tinypool, `AVATAR_CONCURRENCY` at once, a bounded
 *    queue, one fresh process per upload, see providers/images/image-decode.worker.ts), so neither the event loop nor the
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
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import type { StorageProvider } from '../../providers/storage/storage.provider.js';
import {
  createImagePool,
  declaredPixels,
  sniffImage,
  SVG_CPU_BUDGET_MS,
  cpuBudgetMs,
  rasterCostMs,
  rasterEstimateMs,
  tooManyScans,
  type ImageResult,
  type ImageTask,
} from '../../providers/images/image-pool.js';
import { createAvatarScheduler } from './avatar.scheduler.js';

/** Uploads decoded at once (child processes). */
export const AVATAR_CONCURRENCY = 2;
/** Uploads waiting for a free process before new ones are refused with `api.profile.avatar_busy`. */
const MAX_QUEUE = 8;
/** Half-life of an address's decoding cost in the fair queue, milliseconds. */
const COST_HALF_LIFE_MS = 60_000;
/**
 * Decoding cost at which an address's uploads are refused (429) until it decays, milliseconds: four SVG budgets,
 * or a dozen ordinary avatars in a minute.
 */
const ADDRESS_MAX_COST_MS = 4 * SVG_CPU_BUDGET_MS;
/**
 * How fast a waiting upload moves up the fair queue, milliseconds of cost per millisecond waited (avatar.scheduler.ts
 * rule 5): a 3-megapixel photo (150 ms) ranks with a fresh 1 × 1 PNG after about 40 ms of waiting, an SVG (ten
 * budgets) after about 1.9 s.
 */
const AGING_RATE = 4;
/**
 * The estimate of the largest raster image accepted (`AVATAR_MAX_PIXELS`), milliseconds: the most a wait takes off
 * an upload's priority, so an SVG (ten budgets) that waited stays behind every photo (issue 39, fifth re-run); and
 * the bound above which an upload may give way for its estimate (avatar.scheduler.ts rules 2 and 3: SVGs, not photos).
 */
const RASTER_MAX_MS = rasterEstimateMs(AVATAR_MAX_PIXELS);
/**
 * What starting a decoding process costs an upload's keys, milliseconds (the process's boot, not in the CPU it
 * reports): a stream of 1 × 1 PNGs, a few milliseconds of decoding each, costs its accounts and addresses this each
 * (issue 39 item 9, tenth re-run: 1 × 1 PNGs from fresh addresses filled the queue and a photo was refused 4 of 4).
 */
const START_COST_MS = 100;
const SIZE = 512;

/** The message key of each reason the worker refuses an image for. */
const REFUSALS = {
  invalid: 'api.profile.avatar_invalid',
  too_costly: 'api.profile.avatar_timeout',
  too_many_pixels: 'api.profile.avatar_too_many_pixels',
  svg_unsupported: 'api.profile.avatar_svg_unsupported',
} as const;

/**
 * What decoding an upload is expected to cost, for its place in the fair queue (avatar.scheduler.ts), milliseconds:
 * a raster image about 1 ms of CPU per 20,000 declared pixels (a 12-megapixel photo about 600 ms; what it costs
 * follows its pixels, at most 2,000 ms at AVATAR_MAX_PIXELS); an SVG ten budgets whatever its size, which ranks
 * every SVG behind every raster image (and an address's cost up to its ceiling): what an SVG draws cannot be told
 * before it is drawn (issue 39, fifth re-run: 1,359 bytes of blended `<use>` drew for 3.1 s, so an estimate from
 * its size put it ahead of every photo, and photos from other addresses were refused 5 of 5).
 */
export function expectedCostMs(kind: ImageTask['kind'], pixels: number | null): number {
  if (kind === 'svg') return 10 * SVG_CPU_BUDGET_MS;
  return rasterCostMs(kind, pixels);
}

/** A holder's key in the fair queue: their uploads' cost follows them from address to address. */
export const avatarHolderKey = (userId: number): string => `holder:${userId}`;

export function createAvatarService(deps: {
  storage: StorageProvider;
  /** Per-upload deadline, milliseconds, queue wait included (config `avatarDeadlineMs`). */
  deadlineMs: number;
  /** The decoding processes' module (`AppDeps.imageDecodeWorker`); default the one beside image-pool.ts. */
  imageDecodeWorker?: string;
}) {
  // The scheduler starts at most AVATAR_CONCURRENCY tasks: tinypool's queue stays empty.
  const pool = createImagePool({ maxProcesses: AVATAR_CONCURRENCY, workerFile: deps.imageDecodeWorker });
  const scheduler = createAvatarScheduler({
    concurrency: AVATAR_CONCURRENCY,
    maxQueue: MAX_QUEUE,
    deadlineMs: deps.deadlineMs,
    preemptMarginMs: SVG_CPU_BUDGET_MS,
    halfLifeMs: COST_HALF_LIFE_MS,
    maxCostMs: ADDRESS_MAX_COST_MS,
    agingRate: AGING_RATE,
    agingMaxMs: RASTER_MAX_MS,
    startCostMs: START_COST_MS,
    rasterMaxMs: RASTER_MAX_MS,
  });

  /** Decodes in the pool when the scheduler gives the upload a process. */
  async function decode(
    keys: readonly string[],
    task: ImageTask,
    estimateMs: number,
    opts: { newcomer: boolean },
  ): Promise<ImageResult> {
    try {
      return await scheduler.run(
        keys,
        async (signal) => {
          const result = await pool.run(task, signal);
          return { value: result, cpuMs: result.cpuMs };
        },
        estimateMs,
        opts,
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
     * @param keys what the upload is charged to in the fair queue: the client's address key (`ipKey`), and the
     *   holder's (`avatarHolderKey`).
     * @param opts.newcomer the holder holds no ticket: their upload takes the newcomers' share (scheduler rule 7).
     */
    async store(bytes: Buffer, keys: readonly string[], opts: { newcomer: boolean }): Promise<string> {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('api.profile.avatar_too_large');
      const kind = await sniffImage(bytes);
      if (!kind) throw new AppError('api.profile.avatar_invalid');
      const pixels = kind === 'svg' ? null : declaredPixels(bytes);
      if ((pixels ?? 0) > AVATAR_MAX_PIXELS) throw new AppError('api.profile.avatar_too_many_pixels');
      if (tooManyScans(kind, bytes)) throw new AppError('api.profile.avatar_invalid');
      const task = { kind, bytes, maxPixels: AVATAR_MAX_PIXELS, size: SIZE, cpuBudgetMs: cpuBudgetMs(kind, pixels) };
      const result = await decode(keys, task, expectedCostMs(kind, pixels), opts);
      if (!result.ok) throw new AppError(REFUSALS[result.reason]);
      return deps.storage.put('avatars', `${randomUUID()}.webp`, Buffer.from(result.image));
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
