/**
 * Draws a pass code as a QR in the browser (issue 10: the offline pass is drawn on the device), in the
 * same shape the API's PNG has: one pixel per module plus the 4-module quiet zone, level M, shown scaled
 * up with `image-rendering: pixelated`. Part of the QR screen's lazily loaded code only (uqr, no dependencies).
 */
import { encode } from 'uqr';

const QUIET = 4;

/** A `data:image/png` URL of `text` as a QR code. */
export function qrDataUrl(text: string): string {
  const { data } = encode(text, { ecc: 'M', border: 0 });
  const n = data.length;
  const side = n + 2 * QUIET;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  const pixels = ctx.createImageData(side, side);
  pixels.data.fill(255);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      if (data[y][x]) {
        const at = ((y + QUIET) * side + x + QUIET) * 4;
        pixels.data[at] = pixels.data[at + 1] = pixels.data[at + 2] = 0;
      }
  ctx.putImageData(pixels, 0, 0);
  return canvas.toDataURL('image/png');
}
