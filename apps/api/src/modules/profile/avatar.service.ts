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
 *    child process is killed, which ends its libvips/librsvg/libheif work at once.
 *
 * Admission is decided here, before the pool sees the task (issue 19, break 1): tinypool attaches the
 * deadline's abort listener before it checks its own queue limit and leaves it attached on the refused
 * task; when the deadline passed, that listener failed an assertion outside any handler and the process
 * exited. Admission comes first, before any parsing (issue 19, break 1: with 50 mixed uploads at once,
the parsing of uploads that were refused anyway, on the main thread, delayed every other request). So
uploads beyond `AVATAR_CONCURRENCY + MAX_QUEUE` in flight are refused with
 * `api.profile.avatar_busy` without touching the pool, the pool's own queue is unbounded (it never
 * refuses), and each deadline is a timer of ours that is cleared when the upload ends.
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

/** Uploads decoded at once (child processes). */
export const AVATAR_CONCURRENCY = 2;
/** Uploads waiting for a free process before new ones are refused with `api.profile.avatar_busy`. */
const MAX_QUEUE = 8;
const SIZE = 512;

/** The message key of each reason the worker refuses an image for. */
const REFUSALS = {
  invalid: 'api.profile.avatar_invalid',
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
  if (type) {
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
    // Bounded by `inFlight` below, never by tinypool (see the module comment).
    maxQueue: Infinity,
    isolateWorkers: true,
    // The child gets no secrets: only what the image libraries need.
    env: {},
  });

  /** Uploads decoding or waiting for a process. */
  let inFlight = 0;

  /** Decodes in the pool; the caller holds a slot of `inFlight` (see `store`). */
  async function decode(task: AvatarTask): Promise<AvatarResult> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deps.deadlineMs);
    try {
      return (await pool.run(task, { signal: deadline.signal })) as AvatarResult;
    } catch (err) {
      if (deadline.signal.aborted) throw new AppError('api.profile.avatar_timeout');
      const message = String((err as Error)?.message ?? err);
      if (/queue/i.test(message)) throw new AppError('api.profile.avatar_busy');
      throw new AppError('api.profile.avatar_invalid');
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /**
     * Validates, re-encodes and stores an avatar; returns its public path.
     * @throws AppError `api.profile.avatar_too_large` (413: over AVATAR_MAX_BYTES),
     *   `api.profile.avatar_invalid` (400: not an allowed format or undecodable),
     *   `api.profile.avatar_too_many_pixels` (422: over AVATAR_MAX_PIXELS),
     *   `api.profile.avatar_svg_unsupported` (422: outside the SVG policy),
     *   `api.profile.avatar_timeout` (422: not done within the deadline),
     *   `api.profile.avatar_busy` (429: the decoding queue is full).
     */
    async store(bytes: Buffer): Promise<string> {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('api.profile.avatar_too_large');
      if (inFlight >= AVATAR_CONCURRENCY + MAX_QUEUE) throw new AppError('api.profile.avatar_busy');
      inFlight++;
      let result: AvatarResult;
      try {
        const kind = await sniffAvatar(bytes);
        if (!kind) throw new AppError('api.profile.avatar_invalid');
        if (kind !== 'svg' && (declaredPixels(bytes) ?? 0) > AVATAR_MAX_PIXELS)
          throw new AppError('api.profile.avatar_too_many_pixels');
        result = await decode({ kind, bytes, maxPixels: AVATAR_MAX_PIXELS, size: SIZE });
      } finally {
        inFlight--;
      }
      if (!result.ok) throw new AppError(REFUSALS[result.reason]);
      return deps.storage.put('avatars', `${randomUUID()}.webp`, Buffer.from(result.webp));
    },
    /** Uploads decoding or queued right now (0 when idle: nothing of a finished upload stays behind). */
    inFlight: () => inFlight,
    /**
     * The decoding pool right now (metrics, decision 031): `queued` uploads waiting for a free process in the
     * pool's queue, `busy` the other uploads in flight (being checked or decoded; at most AVATAR_CONCURRENCY decode).
     */
    poolStats: () => ({ busy: inFlight - pool.queueSize, queued: pool.queueSize }),
    /** Ends the decoding processes (app shutdown). */
    async close(): Promise<void> {
      await pool.destroy();
    },
  };
}
export type AvatarService = ReturnType<typeof createAvatarService>;
