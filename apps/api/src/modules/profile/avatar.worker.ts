/**
 * Avatar decoding, run in a child process of the avatar pool (avatar.service.ts), never in the server
 * process: a hostile image can only burn this process's CPU and memory until the upload deadline,
 * when the pool kills it (SIGTERM, then SIGKILL); its libvips and libuv threads die with it, so the
 * server's own thread pool (files, crypto, DNS) is never taken. One process per upload
 * (`isolateWorkers`), at a lower CPU priority than the server, with one libvips thread.
 *
 * An SVG is first held to the policy of avatar.svg-policy.ts. Limits are checked before pixels are decoded: sharp's `limitInputPixels` reads PNG, JPG, WEBP and
 * SVG headers first; HEIC's size comes from libheif's parse of the container (the `ispe` property)
 * before the image is decoded.
 */
import { setPriority } from 'node:os';
import sharp, { type Sharp } from 'sharp';

sharp.concurrency(1);
sharp.cache(false);
try {
  setPriority(10);
} catch {
  // Lowering the priority is a courtesy to the server process; not every platform allows it.
}

/** One upload: the sniffed kind and the bytes. */
export interface AvatarTask {
  kind: 'png' | 'jpg' | 'webp' | 'heic' | 'svg';
  bytes: Uint8Array;
  /** Largest accepted image, input pixels (width × height). */
  maxPixels: number;
  /** Side of the square WebP produced, pixels. */
  size: number;
}

/** WebP bytes, or why the image was refused. */
export type AvatarResult =
  { ok: true; webp: Uint8Array } | { ok: false; reason: 'invalid' | 'too_many_pixels' | 'svg_unsupported' };

/** SVGs are rendered so that their longer side is about twice the output size, whatever they declare. */
async function svgDensity(bytes: Buffer, size: number): Promise<number> {
  const meta = await sharp(bytes, { density: 72 }).metadata();
  const longest = Math.max(meta.width ?? size, meta.height ?? size, 1);
  return Math.min(2400, Math.max(1, (72 * 2 * size) / longest));
}

/** Decodes, checks and re-encodes one avatar (see the module comment). */
export default async function processAvatar(task: AvatarTask): Promise<AvatarResult> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    let input: Sharp;
    // Here, not in the server process: parsing a hostile document (saxes + css-tree) takes the server's
    // event loop for tens of milliseconds each, hundreds on a loaded machine (issue 19, break 1).
    // Loaded only for SVG, like libheif below.
    if (task.kind === 'svg' && (await import('./avatar.svg-policy.js')).svgRefusal(bytes))
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
      input = sharp(bytes, {
        limitInputPixels: task.maxPixels,
        density: task.kind === 'svg' ? await svgDensity(bytes, task.size) : undefined,
        failOn: 'error',
      });
    }
    const webp = await input
      .rotate()
      .resize(task.size, task.size, { fit: 'cover', withoutEnlargement: false })
      .webp({ quality: 82 })
      .toBuffer();
    return { ok: true, webp };
  } catch (err) {
    return { ok: false, reason: /pixel limit/i.test(String(err)) ? 'too_many_pixels' : 'invalid' };
  }
}
