/**
 * Avatar upload (spec sections 2 Settings, 5 Avatar formats). Accepts HEIC, WEBP, SVG, PNG and JPG,
 * recognised by their bytes (never by name or declared type), at most `maxBytes`. HEIC is decoded
 * with libheif (heic-decode), SVG rasterised by librsvg (scripts never run), and every avatar is
 * re-encoded by sharp to WebP of at most 512x512 px with metadata stripped; the original bytes are
 * never stored or served. Images over `maxPixels` input pixels are refused (pixel floods).
 */
import { randomUUID } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import decodeHeic from 'heic-decode';
import { fileTypeFromBuffer } from 'file-type';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS as MAX_PIXELS } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import type { StorageProvider } from '../../providers/storage/storage.provider.js';

const SIZE = 512;

/** True when the bytes are an SVG document (XML prolog, comments or doctype, then `<svg`). */
function looksLikeSvg(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
}

/** The kind of image the bytes hold, or null when not an allowed format. */
export async function sniffAvatar(bytes: Buffer): Promise<'png' | 'jpg' | 'webp' | 'heic' | 'svg' | null> {
  const type = await fileTypeFromBuffer(bytes);
  if (type) {
    if (type.ext === 'png' || type.ext === 'jpg' || type.ext === 'webp') return type.ext;
    if (type.ext === 'heic' || type.mime === 'image/heic' || type.mime === 'image/heif') return 'heic';
    return null;
  }
  return looksLikeSvg(bytes) ? 'svg' : null;
}

export function createAvatarService(deps: { storage: StorageProvider }) {
  return {
    /**
     * Validates, re-encodes and stores an avatar; returns its public path.
     * @throws AppError `api.profile.avatar_too_large` (413), `api.profile.avatar_invalid` (400: not an allowed
     *   format, undecodable, or over the pixel limit).
     */
    async store(bytes: Buffer): Promise<string> {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('api.profile.avatar_too_large');
      const kind = await sniffAvatar(bytes);
      if (!kind) throw new AppError('api.profile.avatar_invalid');
      let webp: Buffer;
      try {
        let input: Sharp;
        if (kind === 'heic') {
          const { width, height, data } = await decodeHeic({ buffer: new Uint8Array(bytes) });
          if (width * height > MAX_PIXELS) throw new AppError('api.profile.avatar_invalid');
          input = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
            raw: { width, height, channels: 4 },
            limitInputPixels: MAX_PIXELS,
          });
        } else {
          input = sharp(bytes, {
            limitInputPixels: MAX_PIXELS,
            density: kind === 'svg' ? 144 : undefined,
            failOn: 'error',
          });
        }
        webp = await input
          .rotate()
          .resize(SIZE, SIZE, { fit: 'cover', withoutEnlargement: false })
          .webp({ quality: 82 })
          .toBuffer();
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('api.profile.avatar_invalid');
      }
      return deps.storage.put('avatars', `${randomUUID()}.webp`, webp);
    },
  };
}
export type AvatarService = ReturnType<typeof createAvatarService>;
