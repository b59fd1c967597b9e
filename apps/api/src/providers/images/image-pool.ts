/**
 * The image decoding shared by avatars (modules/profile/avatar.service.ts) and organisation logos
 * (providers/mail/mail-logo.ts), one path with one set of limits (decision 009, issue 41 point 9):
 * - `sniffImage` recognises PNG, JPG, WEBP, HEIC and SVG by their bytes (never by name or declared type);
 * - `declaredPixels` reads a raster header's size (image-size), so an image over `AVATAR_MAX_PIXELS` is refused
 *   before any decoding;
 * - `createImagePool` runs `image-decode.worker.ts` in child processes (tinypool, one fresh process per image, no
 *   environment): an abort (the caller's deadline) kills the process, which ends its libvips/librsvg/libheif work;
 *   an SVG is held to svg-policy.ts there; every image is stopped past its CPU budget (`cpuBudgetMs`).
 * - `tooManyScans` refuses a JPEG of more scans than any encoder writes, before decoding.
 */
import { fileURLToPath } from 'node:url';
import { Tinypool } from 'tinypool';
import { imageSize } from 'image-size';
import { fileTypeFromBuffer } from 'file-type';
import { AVATAR_MAX_PIXELS } from '@tp/contract';
import type { ImageResult, ImageTask } from './image-decode.worker.js';

export type { ImageResult, ImageTask } from './image-decode.worker.js';

/**
 * CPU one SVG may cost its decoding process, milliseconds. What the SVG policy admits costs far less: a plain
 * avatar about 50 ms, 500 blended paths 300 ms, 150 gradient circles (the policy's most) 420 ms; a 58 KB polyline
 * of round joins cost 9,500 ms before this budget (measured on this project's 2-core machine). It is also the cost
 * an address must have spent before its running upload is stopped for a cheaper one (avatar.scheduler.ts).
 */
export const SVG_CPU_BUDGET_MS = 750;

/**
 * The least CPU a raster image may cost its decoding process, milliseconds: measured here, a 12-megapixel JPEG costs
 * about 100 ms, a 12-megapixel WebP 650 ms, a 40-megapixel WebP (`AVATAR_MAX_PIXELS`) 2,100 ms.
 */
export const RASTER_MIN_CPU_BUDGET_MS = 2000;

/**
 * What a raster image is expected to cost to decode, milliseconds: about 1 ms of CPU per 20,000 declared pixels
 * (a 12-megapixel photo about 600 ms, 2,000 ms at `AVATAR_MAX_PIXELS`).
 */
export const rasterEstimateMs = (pixels: number | null): number => (pixels ?? AVATAR_MAX_PIXELS) / 20_000;

/**
 * What decoding one image is expected to cost, milliseconds, by kind: a raster `rasterEstimateMs` (an image whose
 * header cannot be read counts as the largest accepted: seventh re-run, a junk byte before the frame header made its
 * pixels unknown and its estimate 0, ahead of every photo), HEIC three times that (libheif runs as WebAssembly: a
 * 12-megapixel iPhone photo cost 1.7–2.5 s of CPU).
 */
export function rasterCostMs(kind: ImageTask['kind'], pixels: number | null): number {
  return (kind === 'heic' ? 3 : 1) * rasterEstimateMs(pixels);
}

/**
 * The CPU one image may cost its decoding process, milliseconds (issue 39 item 9, sixth re-audit): an SVG
 * `SVG_CPU_BUDGET_MS`; a raster four times its estimate, at least `RASTER_MIN_CPU_BUDGET_MS` (a 1-megapixel JPEG
 * of 100,000 progressive scans cost 14 s and ranked as a cheap photo; now stopped at 2 s).
 */
export function cpuBudgetMs(kind: ImageTask['kind'], pixels: number | null): number {
  if (kind === 'svg') return SVG_CPU_BUDGET_MS;
  return Math.max(RASTER_MIN_CPU_BUDGET_MS, 4 * rasterCostMs(kind, pixels));
}

/** Most scans a JPEG may have: encoders write 1 (baseline) to about 12 (progressive); 64 leaves room. */
export const JPEG_MAX_SCANS = 64;

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

/** The kind of image the bytes hold, or null when not an allowed format (PNG, JPG, WEBP, HEIC, SVG). */
export async function sniffImage(bytes: Buffer): Promise<ImageTask['kind'] | null> {
  const type = await fileTypeFromBuffer(bytes);
  // An SVG with an XML prolog (Inkscape's and Illustrator's default) is `xml` to file-type.
  if (type && type.ext !== 'xml') {
    if (type.ext === 'png' || type.ext === 'jpg' || type.ext === 'webp') return type.ext;
    if (type.ext === 'heic' || type.mime === 'image/heic' || type.mime === 'image/heif') return 'heic';
    return null;
  }
  return looksLikeSvg(bytes) ? 'svg' : null;
}

/**
 * The scans of a JPEG, as every start-of-scan marker (`FF DA`) anywhere in its bytes (one pass, no decoding): in
 * entropy-coded data an `FF` is always followed by `00` or a restart marker, so this counts every scan the decoder
 * can reach, and a pair inside a metadata segment at worst adds one. A walk of the marker segments undercounted:
 * one junk byte made it give up (seventh re-run), and `FF 00 LL LL` between segments, which libjpeg discards as
 * extraneous bytes before decoding the scans behind it, made it skip 100,000 scans as one segment (eighth re-run).
 * A pair counts only with the header libjpeg accepts after it (length `6 + 2 × Ns`, `Ns` components, 1 to 4; any
 * other is a fatal "bogus marker length" there), so the video a phone appends to a motion photo, where `FF DA`
 * pairs occur by chance (about 64 in 4 MB), adds none (ninth re-run: such photos were refused).
 */
export function jpegScans(bytes: Buffer): number {
  let count = 0;
  for (let i = bytes.indexOf(0xff); i >= 0 && i + 4 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    if (bytes[i + 1] !== 0xda) continue;
    const components = bytes[i + 4];
    if (components >= 1 && components <= 4 && bytes.readUInt16BE(i + 2) === 6 + 2 * components) count++;
  }
  return count;
}

/**
 * Whether a sniffed image is refused before any decoding for its structure: a JPEG of more than `JPEG_MAX_SCANS`
 * scans (each scan is a full pass of the decoder over the image: issue 39, sixth re-audit), counted by `jpegScans`.
 */
export function tooManyScans(kind: ImageTask['kind'], bytes: Buffer): boolean {
  return kind === 'jpg' && jpegScans(bytes) > JPEG_MAX_SCANS;
}

/** The largest width × height a raster header declares (every image of a HEIC), or null when unreadable. */
export function declaredPixels(bytes: Buffer): number | null {
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
 * The child process entry: `workerFile` when given (the API tests pass this run's bundle, test/setup/server-bundle.ts,
 * so that each decoding process starts as it does in production, without tsx: about 0.3 s less a process under load),
 * else the compiled .js next to this module, or the .ts source run through tsx.
 */
function workerEntry(workerFile?: string) {
  if (workerFile) return { filename: workerFile, execArgv: [] };
  const ts = import.meta.url.endsWith('.ts');
  const filename = fileURLToPath(new URL(`./image-decode.worker.${ts ? 'ts' : 'js'}`, import.meta.url));
  return { filename, execArgv: ts ? ['--import', import.meta.resolve('tsx')] : [] };
}

/** A pool of decoding processes. */
export interface ImagePool {
  /**
   * Decodes one image in a fresh child process; aborting `signal` kills the process (the run then rejects).
   * @returns the worker's result (an image, or why it was refused, with the CPU it cost)
   */
  run(task: ImageTask, signal: AbortSignal): Promise<ImageResult>;
  /** Ends the decoding processes (app shutdown). */
  destroy(): Promise<void>;
}

/**
 * A pool of at most `maxProcesses` decoding processes at once (child processes, one per image, no environment:
 * the child gets no secrets). Tasks beyond it wait in tinypool's queue; a caller that must bound the wait (the
 * avatar's fair queue) starts no more than `maxProcesses` at once. `workerFile`: the path of the decoding module
 * to run (`image-decode.worker`, compiled; default the one beside this module).
 */
export function createImagePool(opts: { maxProcesses: number; workerFile?: string }): ImagePool {
  const pool = new Tinypool({
    ...workerEntry(opts.workerFile),
    runtime: 'child_process',
    serialization: 'advanced',
    minThreads: 0,
    maxThreads: opts.maxProcesses,
    maxQueue: Infinity,
    isolateWorkers: true,
    env: {},
  });
  return {
    run: async (task, signal) => (await pool.run(task, { signal })) as ImageResult,
    destroy: () => pool.destroy(),
  };
}
