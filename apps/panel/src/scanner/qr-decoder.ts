/**
 * A `BarcodeDetector`-shaped QR reader for browsers without one (issue 20 point 3): each frame is drawn
 * from the `<video>` into a canvas (at most {@link MAX_SIDE} px on its long side) on the page, and its
 * pixels go to qr-decoder.worker.ts (zxing-wasm, off the main thread). Loaded by camera.ts only when the
 * camera is opened (a dynamic import), so the scanner's first load carries none of it.
 */
import type { DecodeAnswer, DecodeRequest } from './qr-decoder.worker';

/** Long side of the frame handed to the decoder, in pixels: a phone's QR at arm's length stays readable. */
const MAX_SIDE = 960;

export interface QrReader {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}

/** A reader backed by a dedicated worker. */
export function createWorkerQrReader(): QrReader {
  const worker = new Worker(new URL('./qr-decoder.worker.ts', import.meta.url), { type: 'module' });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const waiting = new Map<number, (texts: string[]) => void>();
  let next = 0;
  worker.addEventListener('message', (ev: MessageEvent<DecodeAnswer>) => {
    waiting.get(ev.data.id)?.(ev.data.texts);
    waiting.delete(ev.data.id);
  });
  return {
    async detect(video) {
      const width = video.videoWidth;
      const height = video.videoHeight;
      if (!context || !width || !height) return [];
      const scale = Math.min(1, MAX_SIDE / Math.max(width, height));
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const id = ++next;
      const texts = await new Promise<string[]>((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ id, image } satisfies DecodeRequest, [image.data.buffer]);
      });
      return texts.map((rawValue) => ({ rawValue }));
    },
  };
}
