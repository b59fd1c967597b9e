/**
 * Camera scanning in every evergreen browser (issue 20 point 3): the back camera into a `<video>`, a QR
 * read every 200 ms while no check is running, each pass handed to `onCode` once per holder
 * (repeat-guard.ts). The reader is the browser's `BarcodeDetector` where there is one (Chrome on Android,
 * among others), else zxing-wasm in a worker (qr-decoder.ts), imported only when the camera is opened.
 */
import { PASS_CODE_PREFIX } from '@tp/contract/pass-code';
import { createRepeatGuard } from './repeat-guard';

/** The part of the Barcode Detection API used here (not in TypeScript's DOM library yet). */
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorCtor {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?: () => Promise<string[]>;
}
declare global {
  interface Window {
    BarcodeDetector?: BarcodeDetectorCtor;
  }
}

const SCAN_EVERY_MS = 200;

/** True when this browser can open a camera (the QR reader is then BarcodeDetector or the worker). */
export const cameraSupported = (): boolean => typeof navigator.mediaDevices?.getUserMedia === 'function';

/** The browser's BarcodeDetector for QR codes, else the zxing-wasm worker (loaded now, not before). */
async function makeReader(): Promise<BarcodeDetectorLike> {
  const Detector = window.BarcodeDetector;
  if (Detector) {
    const formats = await Detector.getSupportedFormats?.().catch(() => null);
    if (!formats || formats.includes('qr_code')) return new Detector({ formats: ['qr_code'] });
  }
  const { createWorkerQrReader } = await import('./qr-decoder');
  return createWorkerQrReader();
}

export interface Camera {
  readonly running: boolean;
  /** Opens the back camera and starts reading; rejects when the camera cannot be opened. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * @param video where the camera picture is shown.
 * @param onCode called with a pass text; scanning pauses until its promise settles.
 */
export function createCamera(video: HTMLVideoElement, onCode: (code: string) => Promise<void>): Camera {
  const guard = createRepeatGuard();
  let stream: MediaStream | null = null;
  let detector: BarcodeDetectorLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const loop = async () => {
    if (!stream || !detector) return;
    try {
      if (video.readyState >= 2) {
        const found = await detector.detect(video);
        const hit = found.find((b) => b.rawValue.startsWith(PASS_CODE_PREFIX)) ?? found[0];
        if (hit && guard.shouldCheck(hit.rawValue, Date.now())) await onCode(hit.rawValue);
      }
    } catch {
      // A frame that cannot be read is skipped; the next one is tried.
    }
    if (stream) timer = setTimeout(() => void loop(), SCAN_EVERY_MS);
  };

  const camera: Camera = {
    get running() {
      return stream !== null;
    },
    async start() {
      detector ??= await makeReader();
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
        video.srcObject = stream;
        video.hidden = false;
        await video.play();
      } catch (error) {
        camera.stop();
        throw error;
      }
      void loop();
    },
    stop() {
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
      stream = null;
      video.srcObject = null;
      video.hidden = true;
    },
  };
  return camera;
}
