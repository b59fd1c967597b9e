/**
 * Image decoding (avatars, organisation logos), run in a child process of an image pool (image-pool.ts: the avatar
 * pool of modules/profile/avatar.service.ts, the logo's of providers/mail/mail-logo.ts), never in the server
 * process: a hostile image can only burn this process's CPU and memory until its deadline,
 * when the pool kills it (SIGTERM, then SIGKILL); its libvips and libuv threads die with it, so the
 * server's own thread pool (files, crypto, DNS) is never taken. One process per image
 * (`isolateWorkers`), at a lower CPU priority than the server, with one libvips thread.
 *
 * An SVG is first held to the policy of svg-policy.ts. Limits are checked before pixels are decoded: sharp's `limitInputPixels` reads PNG, JPG, WEBP and
 * SVG headers first; HEIC's size comes from libheif's parse of the container (the `ispe` property)
 * before the image is decoded.
 */
import { setPriority } from 'node:os';
import sharp, { type Sharp } from 'sharp';
import { withoutPngMetadata } from './png-chunks.js';

sharp.concurrency(1);
sharp.cache(false);
try {
  setPriority(10);
} catch {
  // Lowering the priority is a courtesy to the server process; not every platform allows it.
}

/** One image: the sniffed kind, the bytes, the limits and what to make of it. */
export interface ImageTask {
  kind: 'png' | 'jpg' | 'webp' | 'heic' | 'svg';
  bytes: Uint8Array;
  /** Largest accepted image, input pixels (width × height). */
  maxPixels: number;
  /** Side of the square image produced, pixels. */
  size: number;
  /**
   * What is produced: `avatar` (the default), a WebP that covers the square (cropped); `logo`, a PNG that the image
   * fits in whole (contain), the rest transparent.
   */
  output?: 'avatar' | 'logo';
  /**
   * CPU the image may cost this process, milliseconds, from the moment the process takes the task (issue 39 item 9;
   * `cpuBudgetMs` in image-pool.ts): what an SVG draws is not bounded by its size or element count (a 58 KB polyline
   * took 9.5 s), nor what a raster costs by its pixels alone (a 1-megapixel progressive JPEG of 100,000 scans, 14 s).
   */
  cpuBudgetMs: number;
}

/** The encoded image (WebP or PNG), or why it was refused; with the CPU the task cost this process, milliseconds. */
export type ImageResult = { cpuMs: number } & (
  | { ok: true; image: Uint8Array }
  | { ok: false; reason: 'invalid' | 'too_many_pixels' | 'svg_unsupported' | 'too_costly' }
);

/** How often the CPU spent is checked against the budget, milliseconds. */
const BUDGET_CHECK_MS = 20;

/** SVGs are rendered so that their longer side is about twice the output size, whatever they declare. */
async function svgDensity(bytes: Buffer, size: number): Promise<number> {
  const meta = await sharp(bytes, { density: 72 }).metadata();
  const longest = Math.max(meta.width ?? size, meta.height ?? size, 1);
  return Math.min(2400, Math.max(1, (72 * 2 * size) / longest));
}

/**
 * Decodes, checks and re-encodes one image (see the module comment). An image that costs more than `cpuBudgetMs`
 * of this process's CPU (its threads included: librsvg and libvips work on other threads, so the check runs while
 * they work) is refused `too_costly`; the pool then kills this process, which ends the work.
 */
export default async function processImage(task: ImageTask): Promise<ImageResult> {
  // Loading the policy's parsers is the process's start, not the drawing: before the clock.
  if (task.kind === 'svg') await import('./svg-policy.js');
  const started = process.cpuUsage();
  const cpuMs = () => {
    const used = process.cpuUsage(started);
    return (used.user + used.system) / 1000;
  };
  let check: ReturnType<typeof setInterval> | undefined;
  const overBudget = new Promise<{ ok: false; reason: 'too_costly' }>((resolve) => {
    check = setInterval(() => {
      if (cpuMs() > task.cpuBudgetMs) resolve({ ok: false, reason: 'too_costly' });
    }, BUDGET_CHECK_MS);
  });
  try {
    const result = await Promise.race([decode(task), overBudget]);
    // The policy's parse runs before the first check: past the budget, the result is refused all the same.
    const late = result.ok && cpuMs() > task.cpuBudgetMs;
    return { ...(late ? { ok: false, reason: 'too_costly' } : result), cpuMs: cpuMs() };
  } finally {
    clearInterval(check);
  }
}

type Decoded =
  { ok: true; image: Uint8Array } | { ok: false; reason: 'invalid' | 'too_many_pixels' | 'svg_unsupported' };

async function decode(task: ImageTask): Promise<Decoded> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    let input: Sharp;
    // Here, not in the server process: parsing a hostile document (saxes + css-tree) takes the server's
    // event loop for tens of milliseconds each, hundreds on a loaded machine (issue 19, break 1).
    // Loaded only for SVG, like libheif below.
    if (task.kind === 'svg' && (await import('./svg-policy.js')).svgRefusal(bytes))
      return { ok: false, reason: 'svg_unsupported' };
    if (task.kind === 'heic') {
      // Loaded only for HEIC: libheif's WebAssembly is the slowest part of a process start.
      const { default: decodeHeic } = await import('heic-decode');
      const images = await decodeHeic.all({ buffer: new Uint8Array(bytes) });
      try {
        const primary = images[0];
        if (!primary || primary.width * primary.height > task.maxPixels)
          return { ok: false, reason: 'too_many_pixels' };
        const { width, height, data } = await primary.decode();
        input = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
          raw: { width, height, channels: 4 },
          limitInputPixels: task.maxPixels,
        });
      } finally {
        images.dispose();
      }
    } else {
      const kept = task.kind === 'png' ? withoutPngMetadata(bytes) : bytes;
      if (!kept) return { ok: false, reason: 'invalid' };
      input = sharp(kept, {
        limitInputPixels: task.maxPixels,
        density: task.kind === 'svg' ? await svgDensity(bytes, task.size) : undefined,
        failOn: 'error',
        // An embedded colour profile is not applied: preparing its transform costs what the profile says, not what
        // the pixels do (issue 39 item 9, ninth re-run: a 1-pixel JPEG's profile of 10,000 colour tables took 11.7 s
        // of CPU, ranked as free). Pixels read as sRGB: a wide-gamut phone photo's avatar comes out a little duller.
        ignoreIcc: true,
      });
    }
    const oriented = input.rotate();
    const image =
      task.output === 'logo'
        ? await oriented
            .resize(task.size, task.size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
            .png({ compressionLevel: 9 })
            .toBuffer()
        : await oriented
            .resize(task.size, task.size, { fit: 'cover', withoutEnlargement: false })
            .webp({ quality: 82 })
            .toBuffer();
    return { ok: true, image };
  } catch (err) {
    return { ok: false, reason: /pixel limit/i.test(String(err)) ? 'too_many_pixels' : 'invalid' };
  }
}
